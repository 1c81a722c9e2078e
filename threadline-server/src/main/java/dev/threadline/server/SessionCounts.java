package dev.threadline.server;

import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.server.http.ApiException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limit of sessions per tenant. Counting a tenant's sessions pages through its index, so each
 * node keeps a count per tenant: read from the store when the tenant first creates here, kept by this
 * node's creates and deletes, read again when it is over a minute old, and always read again before a
 * refusal, so that other nodes' deletes (and expiries) are seen before anyone is refused. Another
 * node's creates since the last read can let a tenant pass the limit by that many; the limit is a
 * guard against runaway clients, not an exact quota. Thread-safe.
 */
final class SessionCounts {
    private static final Duration FRESH = Duration.ofMinutes(1);

    private record Count(long sessions, long readAt) {}

    private final int max;
    private final Map<String, Count> counts = new ConcurrentHashMap<>();

    SessionCounts(int max) {
        this.max = max;
    }

    /**
     * Admits one more session of {@code tenant}.
     *
     * @throws ApiException 429 when the tenant has {@link Limits#maxSessionsPerTenant()} sessions
     */
    void admit(Tenant tenant) {
        Count c = counts.get(tenant.id());
        if (c == null || System.nanoTime() - c.readAt() > FRESH.toNanos() || c.sessions() >= max) {
            c = new Count(count(tenant), System.nanoTime());
            counts.put(tenant.id(), c);
        }
        if (c.sessions() >= max) {
            throw new ApiException(429, "too-many-sessions", null, "your tenant has " + c.sessions() + " sessions, the server's limit is "
                    + max + "; delete some (DELETE /v1/sessions/{id}) before creating more");
        }
    }

    /** One more session of {@code tenant} (created here). */
    void created(String tenant) {
        counts.computeIfPresent(tenant, (t, c) -> new Count(c.sessions() + 1, c.readAt()));
    }

    /** One session fewer (deleted here). */
    void deleted(String tenant) {
        counts.computeIfPresent(tenant, (t, c) -> new Count(Math.max(0, c.sessions() - 1), c.readAt()));
    }

    private long count(Tenant tenant) {
        long n = 0;
        String cursor = null;
        do {
            Page<SessionSummary> page = tenant.sessions(new SessionFilter(null, null, 1000, cursor));
            n += page.items().size();
            cursor = page.nextCursor();
        } while (cursor != null && n <= max);
        return n;
    }
}
