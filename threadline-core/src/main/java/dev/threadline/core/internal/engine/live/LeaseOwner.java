package dev.threadline.core.internal.engine.live;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * Who holds a lease: this host, this process (pid and start time, so a reused pid is told apart) and
 * this runtime instance, encoded as {@code host/pid/startMillis/instance}. Immutable.
 */
public record LeaseOwner(String host, long pid, long startMillis, String instance) {

    /** The owner identity of a new runtime in this process. */
    public static LeaseOwner current() {
        ProcessHandle self = ProcessHandle.current();
        long start = self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
        return new LeaseOwner(hostName(), self.pid(), start, UUID.randomUUID().toString().substring(0, 8));
    }

    public String id() {
        return host + "/" + pid + "/" + startMillis + "/" + instance;
    }

    /** Parses an owner string; empty when it is not one of ours. */
    public static Optional<LeaseOwner> parse(String owner) {
        String[] p = owner.split("/");
        if (p.length != 4) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LeaseOwner(p[0], Long.parseLong(p[1]), Long.parseLong(p[2]), p[3]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether {@code owner} is provably not running: a process of this host whose pid is dead or belongs to
     * a process started at another time. Unknown hosts and formats are never judged gone.
     */
    public static boolean provablyGone(String owner, LeaseOwner self) {
        Optional<LeaseOwner> o = parse(owner);
        if (o.isEmpty() || !o.get().host.equals(self.host) || o.get().pid == self.pid || "unknown".equals(self.host)) {
            return false;
        }
        Optional<ProcessHandle> p = ProcessHandle.of(o.get().pid);
        if (p.isEmpty() || !p.get().isAlive()) {
            return true;
        }
        long start = p.get().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L);
        return start >= 0 && o.get().startMillis > 0 && Math.abs(start - o.get().startMillis) > 1000;
    }

    /** A readable name for messages: "process 123 on host h". */
    public static String describe(String owner) {
        return parse(owner).map(o -> "process " + o.pid + " on host " + o.host).orElse("'" + owner + "'");
    }

    private static String hostName() {
        try {
            Path p = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(p)) {
                String h = Files.readString(p).strip();
                if (!h.isEmpty()) {
                    return h.replace('/', '_');
                }
            }
        } catch (java.io.IOException ignored) {
            // fall through to the environment
        }
        String env = System.getenv("HOSTNAME");
        return env == null || env.isBlank() ? "unknown" : env.strip().replace('/', '_');
    }
}
