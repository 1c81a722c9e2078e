package dev.threadline.core.fault;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Named points of the step path where a JVM in crash-test mode halts, as a power cut there would stop
 * it: no shutdown hook, no finally block, no flush (issue 25). The mode is off unless the system
 * property {@value #PROPERTY} is set when this class is first used: {@code -Dthreadline.crashAt=NAME}
 * halts the JVM with exit code {@value #EXIT_CODE} the first time the point {@code NAME} (a
 * {@link #wireName()}, e.g. {@code step.after-append}) is reached, {@code NAME@N} the N-th time. Before
 * halting it writes one line to stderr, {@code threadline: crash point NAME reached (N), halting}. A
 * test harness starts a process so, lets it halt, restarts it without the property and lets the
 * history checker and the transcript validator judge what the store kept.
 *
 * <p>Off, {@link #reach()} is one comparison of a static final field, which the JIT folds away. The
 * property is read once: a running JVM cannot be armed. An unknown name or a bad count is refused when
 * the class loads (the JVM that asked for a crash mode never runs without it). Thread-safe.
 */
public enum CrashPoint {
    /** A step's events are staged and checked; the store has not been asked to append them. */
    STEP_BEFORE_APPEND("step.before-append"),
    /** The store has appended (committed) a step; the runtime has not updated its cache nor replied. */
    STEP_AFTER_APPEND("step.after-append"),
    /** The runtime has cached the committed step; listeners have not heard it and the caller has no reply. */
    STEP_BEFORE_REPLY("step.before-reply"),
    /** A snapshot is about to be written (the step it folds is committed). */
    SNAPSHOT_WRITE("snapshot.write"),
    /** A store is inside the write of a sealed transcript segment, before it commits. */
    SEGMENT_WRITE("segment.write"),
    /** The store has renewed a lease; the runtime has not yet recorded the new expiry. */
    LEASE_AFTER_RENEW("lease.after-renew"),
    /** This process has taken a session's lease over from another owner; it has not yet written under it. */
    LEASE_AFTER_TAKE_OVER("lease.after-take-over"),
    /** A compaction's summary is made; the compaction step is not yet appended. */
    COMPACTION_BEFORE_APPEND("compaction.before-append"),
    /**
     * A tool call (a skill, an approved call resumed, an MCP tool) has run and returned; its result is not
     * yet journalled, so the effect happened and the journal does not say so.
     */
    TOOL_AFTER_CALL("tool.after-call"),
    /** An MCP server has run a tool call and answered; the skill has not yet handed the answer to the runtime. */
    MCP_DURING_CALL("mcp.during-call"),
    /** A retention sweep has removed part of its batch. */
    SWEEP_MID_BATCH("sweep.mid-batch"),
    /** An erasure has removed some of its subject's data and not yet written its receipt. */
    ERASE_BEFORE_RECEIPT("erase.before-receipt");

    /** The system property that arms a point: {@code NAME} or {@code NAME@N}. */
    public static final String PROPERTY = "threadline.crashAt";
    /** The exit code of a JVM halted at a crash point. */
    public static final int EXIT_CODE = 86;

    private static final CrashPoint ARMED;
    private static final long AT;
    private static final AtomicLong REACHED = new AtomicLong();

    static {
        String spec = System.getProperty(PROPERTY);
        if (spec == null || spec.isBlank()) {
            ARMED = null;
            AT = 0;
        } else {
            int at = spec.indexOf('@');
            String name = (at < 0 ? spec : spec.substring(0, at)).strip();
            ARMED = ofWireName(name);
            long n;
            try {
                n = at < 0 ? 1 : Long.parseLong(spec.substring(at + 1).strip());
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1) {
                throw new IllegalArgumentException("-D" + PROPERTY + "=" + spec + ": the count after '@' must be a whole number"
                        + " of at least 1");
            }
            AT = n;
        }
    }

    private final String wireName;

    CrashPoint(String wireName) {
        this.wireName = wireName;
    }

    /** The point's name in {@value #PROPERTY}, e.g. {@code step.after-append}. */
    public String wireName() {
        return wireName;
    }

    /**
     * The point named {@code name}.
     *
     * @throws IllegalArgumentException naming the known points when there is none of that name
     */
    public static CrashPoint ofWireName(String name) {
        for (CrashPoint p : values()) {
            if (p.wireName.equals(name)) {
                return p;
            }
        }
        StringBuilder known = new StringBuilder();
        for (CrashPoint p : values()) {
            known.append(known.isEmpty() ? "" : ", ").append(p.wireName);
        }
        throw new IllegalArgumentException("-D" + PROPERTY + ": no crash point is named '" + name + "'; the points are "
                + known.toString().toLowerCase(Locale.ROOT));
    }

    /** The point armed in this JVM, or null when crash-test mode is off. */
    public static CrashPoint armed() {
        return ARMED;
    }

    /**
     * Marks that the code reached this point: halts the JVM when this is the armed point and this is the
     * armed count of times; does nothing otherwise (always, when the mode is off).
     */
    public void reach() {
        if (ARMED == this) {
            long n = REACHED.incrementAndGet();
            if (n == AT) {
                byte[] line = ("threadline: crash point " + wireName + " reached (" + n + "), halting\n").getBytes(StandardCharsets.UTF_8);
                System.err.write(line, 0, line.length);
                System.err.flush();
                Runtime.getRuntime().halt(EXIT_CODE);
            }
        }
    }
}
