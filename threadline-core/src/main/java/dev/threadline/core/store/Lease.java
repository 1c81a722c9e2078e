package dev.threadline.core.store;

import dev.threadline.core.error.Require;
import java.time.Instant;

/**
 * A session's lease: who holds it, its fencing epoch, and until when. Immutable.
 *
 * @param key       the session
 * @param owner     the holder's identity (opaque to stores; the runtime encodes host, pid and instance)
 * @param epoch     the fencing epoch this lease carries (at least 1)
 * @param expiresAt when the lease lapses unless renewed
 */
public record Lease(SessionKey key, String owner, long epoch, Instant expiresAt) {
    /** @throws dev.threadline.core.error.InvalidInputException when a field is missing or the epoch below 1 */
    public Lease {
        Require.nonNull(key, "lease.key");
        Require.nonBlank(owner, "lease.owner");
        Require.argument(epoch >= 1, "lease.epoch", "must be at least 1, was " + epoch);
        Require.nonNull(expiresAt, "lease.expiresAt");
    }

    /** Whether the lease has lapsed at {@code now}. */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
