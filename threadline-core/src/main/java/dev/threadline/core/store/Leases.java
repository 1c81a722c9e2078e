package dev.threadline.core.store;

import java.time.Duration;
import java.util.Optional;

/**
 * The store's role as the arbiter of which process runs a session: a lease per session with a
 * fencing epoch. Each acquisition by a new owner (or after a release or an expiry) increments the
 * session's epoch; {@link Journal#append} refuses an epoch that is not the current one, so a process
 * that lost its lease can never append. Expiry is judged by the store's own clock. Implementations
 * are thread-safe; each method is atomic.
 */
public interface Leases {

    /**
     * Takes the session's lease for {@code owner} for {@code ttl}, if it is free, expired, already
     * held by {@code owner} (then it is renewed, same epoch), or held by {@code deadHolder} (an owner
     * the caller has proven gone, e.g. a process of this host that no longer runs; null for none).
     *
     * @return {@link LeaseResult.Acquired} with the lease and the one it replaced (null if none), or
     *         {@link LeaseResult.Held} with the current holder's lease
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     * @throws dev.threadline.core.error.InvalidInputException    when the owner is blank or the ttl not positive
     */
    LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder);

    /**
     * Extends a lease this owner holds (even if it expired, as long as no one else took it since).
     *
     * @return the renewed lease (same epoch, later expiry)
     * @throws dev.threadline.core.error.LeaseLostException       when the epoch moved on (another owner took it)
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    Lease renew(Lease lease, Duration ttl);

    /** Gives the lease up if it is still the current one (otherwise does nothing). */
    void release(Lease lease);

    /**
     * The session's current lease (possibly expired), or empty when none was ever taken or it was released.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    Optional<Lease> lease(SessionKey key);

    /**
     * Asks the holder of the session's lease at {@code epoch} to interrupt the command it runs (a new
     * message that interrupts or rolls back a running turn, from another process). The holder sees it
     * through {@link #takeInterruptRequest} while it renews; a request for an epoch that is no longer
     * current is never seen. Stores that cannot carry it return false (the default), and the caller
     * falls back to waiting for the lease.
     *
     * @return whether the request was recorded
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    default boolean requestInterrupt(SessionKey key, long epoch, String reason) {
        return false;
    }

    /**
     * Takes the interrupt request made for this lease's epoch, if any (it is then gone).
     *
     * @return the request's reason, or empty
     */
    default Optional<String> takeInterruptRequest(Lease lease) {
        return Optional.empty();
    }
}
