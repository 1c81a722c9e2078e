package dev.threadline.harness.process;

import dev.threadline.core.error.CommandConflictException;
import dev.threadline.core.error.LeaseHeldException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.builtin.AskUserSkill;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.error.SessionBusyException;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.history.HistoryLines;
import dev.threadline.harness.history.Outcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runtime inside a child of the multi-process tests: one {@link Threadline} on the shared store
 * (opened by URL, so one child serves every backend), and {@link #submit}, which reports every call on stdout:
 * <pre>
 *   START &lt;session&gt; &lt;cid&gt; &lt;text&gt;          before the call ({@link HistoryLines})
 *   END ok|failed|unknown &lt;session&gt; &lt;cid&gt;     after it
 *   RESULT &lt;cid&gt; &lt;outcome&gt; &lt;seq&gt; &lt;reply&gt;     when it returned
 *   HELD &lt;cid&gt; &lt;holder&gt;                   when the lease was held elsewhere (failed: nothing written)
 *   LOST &lt;cid&gt;                            when fencing refused an append (unknown: earlier steps stay)
 *   CONFLICT &lt;cid&gt; &lt;message&gt;              when the id was first used for another command (failed)
 *   BUSY &lt;cid&gt; &lt;message&gt;                  when double texting {@code reject} refused it (failed: nothing written)
 *   ERR &lt;cid&gt; &lt;exception class&gt; &lt;message&gt; any other exception (unknown)
 *   ACK &lt;session&gt; &lt;seq&gt; &lt;started&gt;        after every step this runtime commits (started: it started tool calls)
 * </pre>
 */
public final class ChildRuntime implements AutoCloseable {
    /** Tool calls wait at most this long (the gate skill waits for the test). */
    public static final SessionConfig CONFIG = SessionConfig.DEFAULT.withToolTimeoutMillis(90_000);

    private final Threadline threadline;
    private final Tenant tenant;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    private ChildRuntime(Threadline threadline, Tenant tenant) {
        this.threadline = threadline;
        this.tenant = tenant;
    }

    /** Starts the runtime {@code a} describes: its store, skill, lease timing and tenant. */
    public static ChildRuntime start(ChildArgs a) {
        Skill work = a.skill().equals("gate") ? new GateSkill(a.gates()) : new SlowSkill();
        Threadline tl = Threadline.builder()
                .store(StateStores.open(a.store()))
                .model(LeaseTestModel.of(work.name()))
                .tokenCounter(new CheapTokenCounter())
                .skills(List.of())
                .skill(work)
                .skill(new GuardedSkill())
                .skill(new AskUserSkill())
                .leaseTtl(a.leaseTtl())
                .snapshotEvery(a.snapshotEvery())
                .leaseWait(a.leaseWait())
                .build();
        Tenant tenant = tl.tenant(a.tenant());
        tenant.addListener((id, events, state) -> {
            StoredEvent last = events.get(events.size() - 1);
            boolean started = events.stream().anyMatch(e -> e.event() instanceof Event.ToolCallStarted);
            ChildOut.line("ACK " + id + " " + last.seq() + " " + started);
        });
        return new ChildRuntime(tl, tenant);
    }

    /** The tenant the child works in. */
    public Tenant tenant() {
        return tenant;
    }

    /** The session, created when it does not exist yet (atomic across processes). */
    public Session session(String id) {
        return sessions.computeIfAbsent(id, k -> tenant.openOrCreate(k, CONFIG));
    }

    /** Submits {@code text} under {@code cid} and reports the call (see the class comment); never throws; returns how it ended. */
    public Outcome submit(String session, String cid, String text) {
        return submit(session, cid, text, null);
    }

    /**
     * Submits as {@link #submit(String, String, String)} does, with {@code doubleTexting} (null: the session's) for a turn
     * that runs meanwhile.
     */
    public Outcome submit(String session, String cid, String text, DoubleTexting doubleTexting) {
        ChildOut.line(HistoryLines.start(session, cid, text));
        Outcome outcome = Outcome.UNKNOWN;
        try {
            CommandOptions.Builder options = CommandOptions.builder().commandId(cid);
            if (doubleTexting != null) {
                options.doubleTexting(doubleTexting);
            }
            TurnResult r = session(session).with(options.build()).submit(text);
            outcome = Outcome.OK;
            ChildOut.line("RESULT " + cid + " " + r.outcome() + " " + r.seq() + " " + oneLine(r.reply()));
        } catch (LeaseHeldException e) {
            outcome = Outcome.FAILED;
            ChildOut.line("HELD " + cid + " " + oneLine(e.holder()) + " " + oneLine(e.getMessage()));
        } catch (LeaseLostException e) {
            ChildOut.line("LOST " + cid);
        } catch (SessionBusyException e) {
            outcome = Outcome.FAILED;
            ChildOut.line("BUSY " + cid + " " + oneLine(e.getMessage()));
        } catch (CommandConflictException e) {
            outcome = Outcome.FAILED;
            ChildOut.line("CONFLICT " + cid + " " + oneLine(e.getMessage()));
        } catch (RuntimeException e) {
            ChildOut.line("ERR " + cid + " " + e.getClass().getSimpleName() + " " + oneLine(e.getMessage()));
            e.printStackTrace();
        } finally {
            ChildOut.line(HistoryLines.end(outcome, session, cid));
        }
        return outcome;
    }

    private static String oneLine(String s) {
        return s == null ? "-" : s.replaceAll("\\s+", " ");
    }

    @Override
    public void close() {
        threadline.close();
    }
}
