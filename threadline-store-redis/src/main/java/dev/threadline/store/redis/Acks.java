package dev.threadline.store.redis;

import dev.threadline.core.error.InvalidInputException;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Replicated acknowledgements, opt-in through the store URL's query: {@code replicas=N} (N &ge; 1; 0 or
 * absent = off) and {@code replicaTimeout=D} ({@code 500ms}, {@code 2s}; required with replicas). When on,
 * an acknowledged write (a step, a create, a lease take-over, a delete) is followed by
 * {@code WAIT N timeout} on the connection that wrote it, and acknowledged only when N replicas confirm;
 * fewer within the timeout is a {@link Shortfall}: the write may still survive (unknown outcome). WAIT,
 * not WAITAOF: WAITAOF needs Redis 7.2 (see ADR 0047). Immutable and thread-safe.
 */
record Acks(int replicas, Duration timeout) {
    static final Acks OFF = new Acks(0, Duration.ZERO);

    /** The store URL without the two parameters, and the acknowledgement they ask for. */
    record Parsed(String url, Acks acks) {
    }

    /** Fewer replicas than asked confirmed a write within the timeout: the write is on the master, its fate unknown. */
    static final class Shortfall extends RuntimeException {
        Shortfall(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Splits {@code replicas} and {@code replicaTimeout} off the URL's query (other parameters stay).
     *
     * @throws InvalidInputException naming the parameter when a value is malformed or out of range
     */
    static Parsed parse(String url) {
        int q = url.indexOf('?');
        if (q < 0) {
            return new Parsed(url, OFF);
        }
        String replicas = null;
        String timeout = null;
        List<String> kept = new ArrayList<>();
        for (String p : url.substring(q + 1).split("&")) {
            if (p.startsWith("replicas=")) {
                replicas = p.substring("replicas=".length());
            } else if (p.startsWith("replicaTimeout=")) {
                timeout = p.substring("replicaTimeout=".length());
            } else if (!p.isEmpty()) {
                kept.add(p);
            }
        }
        String rest = url.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
        int n = replicas == null ? 0 : count(replicas);
        if (n == 0) {
            if (timeout != null) {
                duration(timeout); // still refuse a malformed value
            }
            return new Parsed(rest, OFF);
        }
        if (timeout == null) {
            throw new InvalidInputException("replicaTimeout", "is required with replicas=" + n
                    + ": how long a write may wait for its replicas, e.g. replicaTimeout=2s");
        }
        return new Parsed(rest, new Acks(n, duration(timeout)));
    }

    private static int count(String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 0 && n <= 100) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // the message below says what is accepted
        }
        throw new InvalidInputException("replicas", "'" + text + "' is not a replica count from 0 (off) to 100");
    }

    private static Duration duration(String text) {
        try {
            Duration d = text.endsWith("ms") ? Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)))
                    : text.endsWith("s") ? Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1))) : null;
            if (d != null && !d.isNegative() && !d.isZero()) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // the message below says what is accepted
        }
        throw new InvalidInputException("replicaTimeout", "'" + text + "' is not a positive duration such as 500ms or 2s");
    }

    boolean on() {
        return replicas > 0;
    }

    /** The durability statement's clause for this mode. */
    String describe() {
        if (!on()) {
            return "acknowledged by the master alone (replication asynchronous: a failover may lose the newest acknowledged steps)";
        }
        return "acknowledged after " + replicas + (replicas == 1 ? " replica confirms" : " replicas confirm")
                + " (WAIT, timeout " + text(timeout) + "; a failover loses nothing acknowledged unless the master and every"
                + " confirming replica are lost)";
    }

    /** Waits for the replicas on {@code node}, the connection that just wrote; throws a {@link Shortfall} when too few confirm. */
    void confirm(RedisClusterCommands<String, String> node) {
        long confirmed = node.waitForReplication(replicas, timeout.toMillis());
        if (confirmed < replicas) {
            throw new Shortfall("written on the master but only " + confirmed + " of " + replicas + " replicas confirmed it within "
                    + text(timeout) + " (WAIT); the outcome is unknown: the write may survive a failover or be lost");
        }
    }

    private static String text(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
