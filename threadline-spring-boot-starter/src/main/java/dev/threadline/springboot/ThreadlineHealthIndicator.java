package dev.threadline.springboot;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Up when the store answers a one-session listing of the tenant (the same probe as the server's {@code /ready}),
 * with the store's durability and the tenant as details; down with the error otherwise (a store that is gone, a
 * runtime that was closed). Thread-safe: each check is one read of the store.
 */
public final class ThreadlineHealthIndicator implements HealthIndicator {
    private static final SessionFilter ONE = new SessionFilter(null, null, 1, null);
    private final Threadline threadline;
    private final Tenant tenant;

    /** An indicator probing {@code tenant} of {@code threadline}. */
    public ThreadlineHealthIndicator(Threadline threadline, Tenant tenant) {
        this.threadline = threadline;
        this.tenant = tenant;
    }

    /** Probes the store; never throws (a failure is a {@code DOWN} health carrying the exception). */
    @Override
    public Health health() {
        try {
            tenant.sessions(ONE);
            return Health.up().withDetail("store", threadline.durability()).withDetail("tenant", tenant.id()).build();
        } catch (RuntimeException e) {
            return Health.down(e).withDetail("tenant", tenant.id()).build();
        }
    }
}
