package dev.threadline.server.webhooks;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionKey;
import dev.threadline.server.keys.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-tenant delivery leases of one node: a tenant's webhooks are delivered only by the node that
 * holds the store's lease ({@link Leases}) on the tenant's reserved lease session, so nodes on one store
 * never send the same event on purpose. The owner is {@code webhooks/host/pid/start/instance}; a lease
 * left by a process of this host that no longer runs is taken at once (a restart does not wait out the
 * ttl), any other only once it lapses. Thread-safe.
 */
final class DeliveryLeases {
    private final Leases leases;
    private final Duration ttl;
    private final Clock clock;
    private final String owner;
    private final Map<String, Lease> held = new ConcurrentHashMap<>();

    DeliveryLeases(Leases leases, Duration ttl, Clock clock) {
        this.leases = leases;
        this.ttl = ttl;
        this.clock = clock;
        ProcessHandle self = ProcessHandle.current();
        long start = self.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
        this.owner = "webhooks/" + host() + "/" + self.pid() + "/" + start + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Whether this node holds the tenant's lease now (taking or renewing it when due); false when another node does, or this thread is interrupted. */
    boolean hold(String tenant) {
        if (Thread.currentThread().isInterrupted()) {
            return false; // shutting down: send nothing more
        }
        Lease mine = held.get(tenant);
        Instant now = clock.instant();
        if (mine != null && now.isBefore(mine.expiresAt().minus(ttl.dividedBy(2)))) {
            return true;
        }
        SessionKey key = new SessionKey(KeyStore.TENANT, WebhookStore.leaseSession(tenant));
        try {
            if (mine != null) {
                try {
                    held.put(tenant, leases.renew(mine, ttl));
                    return true;
                } catch (LeaseLostException lost) {
                    held.remove(tenant);
                }
            }
            Optional<Lease> current = leases.lease(key);
            String dead = current.map(Lease::owner).filter(this::gone).orElse(null);
            LeaseResult r = leases.acquire(key, owner, ttl, dead);
            if (r instanceof LeaseResult.Acquired a) {
                held.put(tenant, a.lease());
                return true;
            }
            return false;
        } catch (SessionNotFoundException none) { // the records of a tenant being set up, or removed
            held.remove(tenant);
            return false;
        }
    }

    /** Gives up the tenant's lease, if this node holds it. */
    void release(String tenant) {
        Lease mine = held.remove(tenant);
        if (mine != null) {
            try {
                leases.release(mine);
            } catch (RuntimeException ignored) {
                // it lapses on its own
            }
        }
    }

    /** Gives up every lease this node holds (at shutdown, so another node takes over at once). */
    void releaseAll() {
        for (String tenant : held.keySet()) {
            release(tenant);
        }
    }

    /** Whether {@code other} is a webhook owner on this host whose process no longer runs (or is another process by that pid). */
    private boolean gone(String other) {
        String[] p = other.split("/");
        if (p.length != 5 || !p[0].equals("webhooks") || !p[1].equals(host()) || "unknown".equals(p[1]) || other.equals(owner)) {
            return false;
        }
        try {
            long pid = Long.parseLong(p[2]);
            long start = Long.parseLong(p[3]);
            if (pid == ProcessHandle.current().pid()) {
                return false;
            }
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isEmpty() || !h.get().isAlive()) {
                return true;
            }
            long actual = h.get().info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
            return actual >= 0 && start > 0 && Math.abs(actual - start) > 1000;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String host() {
        try {
            java.nio.file.Path p = java.nio.file.Path.of("/proc/sys/kernel/hostname");
            if (java.nio.file.Files.isReadable(p)) {
                String h = java.nio.file.Files.readString(p).strip();
                if (!h.isEmpty()) {
                    return h.replace('/', '_');
                }
            }
        } catch (java.io.IOException ignored) {
            // the environment, then
        }
        String env = System.getenv("HOSTNAME");
        return env == null || env.isBlank() ? "unknown" : env.strip().replace('/', '_');
    }
}
