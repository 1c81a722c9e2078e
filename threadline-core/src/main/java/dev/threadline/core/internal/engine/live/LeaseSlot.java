package dev.threadline.core.internal.engine.live;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.store.Lease;
import java.time.Instant;

/**
 * The session's lease as this runtime holds it (the {@link LeaseKeeper}'s per-session state). While a
 * lease is held or a command is inside, the slot holds one pin on its {@link LiveSession}. Guarded by its
 * own monitor; {@code lease} and {@code lost} are read without it.
 */
final class LeaseSlot {
    volatile Lease lease;
    /** Why the lease went while a command held it (a renewal found it taken over), or null. */
    volatile LeaseLostException lost;
    /** Commands inside the lease now. */
    int active;
    Instant idleSince;
    /** When this runtime took the lease it holds (renewals keep it), or null; written just before {@code lease}. */
    Instant heldSince;
    /** Whether the slot holds its pin on the entry. */
    boolean pinned;
}
