package dev.threadline.core.store;

/**
 * What {@link Leases#acquire} did: the lease was taken, or someone else holds it. Both outcomes are immutable records.
 */
public sealed interface LeaseResult {

    /**
     * The caller holds the lease now.
     *
     * @param lease    the caller's lease
     * @param previous the lease it replaced when that was another owner's (expired or proven gone), else null
     */
    record Acquired(Lease lease, Lease previous) implements LeaseResult {
    }

    /** Another owner holds an unexpired lease. */
    record Held(Lease current) implements LeaseResult {
    }
}
