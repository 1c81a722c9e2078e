package dev.threadline.harness.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code key=value} arguments of the children of the multi-process tests, with their defaults.
 * Immutable.
 */
public record ChildArgs(Map<String, String> values) {

    /** The {@code key=value} arguments of a child's command line. */
    public static ChildArgs parse(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("child argument '" + a + "' is not key=value");
            }
            m.put(a.substring(0, eq), a.substring(eq + 1));
        }
        return new ChildArgs(Map.copyOf(m));
    }

    /** Builds the argument list for a child. */
    public static List<String> of(Map<String, ?> values) {
        return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
    }

    private String get(String key, String dflt) {
        String v = values.get(key);
        if (v == null && dflt == null) {
            throw new IllegalArgumentException("child argument " + key + "=... is missing");
        }
        return v == null ? dflt : v;
    }

    /** The store's URL, as {@link dev.threadline.core.store.StateStores#open} takes it (sqlite:PATH, postgresql://..., redis://...). */
    public String store() {
        return get("store", null);
    }

    /** The incarnation's name, e.g. {@code A#3}: used in output lines and command ids. */
    public String name() {
        return get("name", null);
    }

    /** The tenant the child works in (default {@code acme}). */
    public String tenant() {
        return get("tenant", "acme");
    }

    /** Save a snapshot every this many events (the runtime's default, 100, unless given). */
    public int snapshotEvery() {
        return Integer.parseInt(get("snapshotEvery", "100"));
    }

    /** The child runtime's lease TTL (default 1 s). */
    public Duration leaseTtl() {
        return Duration.ofMillis(Long.parseLong(get("ttlMillis", "1000")));
    }

    /** How long the child's commands wait for a held session (default 3 s). */
    public Duration leaseWait() {
        return Duration.ofMillis(Long.parseLong(get("waitMillis", "3000")));
    }

    /** The skill the model calls for a "work" message: {@code slow} (20-60 ms) or {@code gate} (waits for a file). */
    public String skill() {
        return get("skill", "slow");
    }

    /** Where the gate skill looks for its release files. */
    public Path gates() {
        return Path.of(get("gates", "."));
    }

    /** The sessions the child's own clients submit to (comma-separated; may be empty). */
    public List<String> sessions() {
        String s = get("sessions", "");
        return s.isBlank() ? List.of() : Arrays.asList(s.split(","));
    }

    /** Client threads per session that submit in a loop until QUIT. */
    public int clients() {
        return Integer.parseInt(get("clients", "0"));
    }

    /**
     * Whether the child boots as a standby: it opens the store and its sessions, prints {@code STANDBY},
     * and runs nothing until {@code GO} arrives on stdin (a restart that costs no JVM start).
     */
    public boolean standby() {
        return Boolean.parseBoolean(get("standby", "false"));
    }

    /** Every how many reads the reader child submits a turn of its own (0: never). */
    public int submitEvery() {
        return Integer.parseInt(get("submitEvery", "0"));
    }

    /** How long a client loop pauses after a call the store did not answer (default 0: none). */
    public Duration backoff() {
        return Duration.ofMillis(Long.parseLong(get("backoffMillis", "0")));
    }

    /**
     * Every how long the child's mixer branches or compacts one of its sessions (default 0: no mixer):
     * in turn a fork at the latest checkpoint, a rewind to it (each followed by one turn on the new
     * branch) and a compaction ({@link Mixer}).
     */
    public Duration mixEvery() {
        return Duration.ofMillis(Long.parseLong(get("mixMillis", "0")));
    }

    /** The child exits by itself after this long, in case the test process died without killing it. */
    public Duration maxRun() {
        return Duration.ofSeconds(Long.parseLong(get("maxSeconds", "300")));
    }
}
