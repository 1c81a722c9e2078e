package dev.threadline.core.runtime;

import java.util.List;

/**
 * Legal holds and erasure, over every tenant of a runtime's store (see {@code Threadline.lifecycle()}).
 *
 * <p>Holds and erasure receipts are kept in the store itself, as the variables of two sessions of the
 * reserved tenant {@value #RECORDS_TENANT}: every node on one store sees the same ones, and each
 * placement, lift and erasure is a step of those sessions' journals (with its author and reason), so
 * the record of who did what is the journal. See ADR 0037.
 *
 * <p>An erasure removes, in the subject's tenant: every session of the subject with all its branches
 * (each under its lease, after the commands this process queued on it; a session another process is
 * running makes the erasure stop midway with a {@code LeaseHeldException}: run it again), their
 * journals, snapshots, command records and pending approvals; the user-scope variables of the user (of
 * every user of the tenant's removed sessions, and the app variables, for a tenant); then asks the store
 * to scrub its files ({@code StateStore.scrub()}), and keeps an {@link ErasureReceipt}. A session forked
 * from another subject's session keeps the events it shares with its parent in the parent. Thread-safe.
 */
public interface DataLifecycle {
    /** The reserved tenant whose sessions keep holds and erasure receipts; it can be neither held nor erased. */
    String RECORDS_TENANT = "threadline.records";

    /**
     * Places a legal hold on {@code subject} (or returns the one already in place, unchanged). From now
     * on retention skips the subject's sessions and an erasure that touches them is refused.
     *
     * @throws dev.threadline.core.error.InvalidInputException when reason or actor is blank, or the subject is the reserved tenant
     */
    LegalHold placeHold(DataSubject subject, String reason, String actor);

    /**
     * Lifts the hold on {@code subject}; false when there was none. The lift is recorded with {@code actor}.
     *
     * @throws dev.threadline.core.error.InvalidInputException when actor is blank
     */
    boolean liftHold(DataSubject subject, String actor);

    /** The holds in place on {@code tenant} and its users and sessions, oldest first. */
    List<LegalHold> holds(String tenant);

    /**
     * Erases {@code subject} (see the class comment) and returns the receipt, which is also kept.
     *
     * @throws dev.threadline.core.error.LegalHoldException       when a hold covers the subject or any session it would remove; nothing is changed
     * @throws dev.threadline.core.error.SessionNotFoundException when the subject is a session that does not exist
     * @throws dev.threadline.core.error.InvalidInputException    when actor is blank, or the subject is the reserved tenant
     */
    ErasureReceipt erase(DataSubject subject, String actor);

    /**
     * The receipt of an erasure of {@code subject} that has not ended: one running now, or one a crash or a
     * failure stopped midway ({@code complete} false). An erasure keeps its receipt, marked in progress,
     * before it removes anything, so a process that dies midway leaves this record; {@link #erase} of the
     * same subject continues it under the same receipt id, even when nothing of the subject is left to
     * remove. Reads only.
     */
    java.util.Optional<ErasureReceipt> unfinished(DataSubject subject);

    /**
     * Whether the store keeps anything of {@code subject}: the session; a session or user-scope variables
     * of the user; a session or app variables of the tenant. Reads only. A tool that erases on request can
     * tell a mistyped id from a subject already gone with it.
     */
    boolean holdsDataOf(DataSubject subject);

    /**
     * Looks for what an erasure of {@code subject} should have left nothing of, and says where it is:
     * the session, or the user's sessions; the user's variables; and, when {@code text} is given (a
     * canary from the erased data), that text in any session of the tenant (its description, every
     * event of its own journal) and in the tenant's app and users' variables. Reads only. Empty when
     * nothing is found. This reads through the store, as the runtime does; the bytes of a store's files
     * are the scrub's business ({@code StateStore.scrub()}).
     *
     * @throws dev.threadline.core.error.InvalidInputException when text is blank (give null for none)
     */
    List<String> verify(DataSubject subject, String text);

    /**
     * Applies an earlier erasure again, as after restoring a backup taken before it: erases, in the
     * receipt's tenant, whatever its hashes name that is there again (the user whose id hashes to its
     * subject hash, or the session, or the whole tenant; and every session whose id hashes to one of its
     * session hashes), and keeps {@code earlier} among the receipts if the store lost it. Returns the
     * receipt of this erasure, or empty when nothing of the subject was there. A user is found through
     * their sessions: user-scope variables of a user with no session left cannot be found by a hash.
     *
     * @throws dev.threadline.core.error.LegalHoldException when a hold now covers what it would erase; nothing is changed
     * @throws dev.threadline.core.error.InvalidInputException when actor is blank, or the receipt names the reserved tenant
     */
    java.util.Optional<ErasureReceipt> replay(ErasureReceipt earlier, String actor);

    /**
     * Prunes the history of one session under {@code policy}, or (null) under the session's own
     * ({@link PrunePolicy#METADATA_KEY} in its metadata) (ADR 0045): the checkpoints the policy lets
     * go are folded into a base the session loads from, and their events, snapshots and segments are
     * removed. The session keeps working; a read of a pruned checkpoint is a
     * {@link dev.threadline.core.error.HistoryPrunedException}. A branch's branch point is never pruned
     * past: the result names the branch that limited it. Runs as a command of the session, under its lease.
     *
     * @throws dev.threadline.core.error.InvalidInputException    when an argument is invalid, the tenant is the reserved one,
     *         the store does not prune (naming it), or no policy is given and the session has none; nothing is changed
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     * @throws dev.threadline.core.error.LegalHoldException       when a hold covers the session; nothing is changed
     * @throws dev.threadline.core.error.LeaseHeldException       when another process runs the session past the lease wait
     */
    PruneResult prune(String tenant, String sessionId, PrunePolicy policy);

    /**
     * Prunes every session of {@code tenant} (see {@link #prune}) under its own policy ({@link
     * PrunePolicy#METADATA_KEY}) or else {@code policy}, the tenant's default (null: only the sessions that have
     * their own); held sessions are left untouched, ones another process is running are counted and left for
     * the next pass, and one whose own policy is malformed is left as it is.
     *
     * @throws dev.threadline.core.error.InvalidInputException when an argument is invalid or the store does not prune
     */
    PruneSweep pruneTenant(String tenant, PrunePolicy policy);

    /** The receipts of {@code tenant}'s erasures, oldest first. */
    List<ErasureReceipt> receipts(String tenant);

    /**
     * The hash under which receipts name an id of {@code tenant}: hex SHA-256 of the tenant, a zero
     * character and the id, so that anyone who knows an id can find it in a receipt.
     */
    static String hash(String tenant, String id) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                    .digest((tenant + "\u0000" + id).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
