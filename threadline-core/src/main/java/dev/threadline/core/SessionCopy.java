package dev.threadline.core;

import dev.threadline.core.error.Require;
import dev.threadline.core.internal.engine.StoreCopy;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.StateStore;
import java.util.function.Consumer;

/**
 * Copies sessions from one store to another of any kind (memory, SQLite, PostgreSQL, Redis): a tenant's
 * sessions, or one session with the ancestors it branched from and the branches below it; each with its
 * description, its journal (seqs, steps, times and command ids unchanged), the user and app variables its
 * steps wrote and its command records; parents before branches.
 *
 * <p>Idempotent and resumable: a rerun after a crash, a kill or a network failure continues where the
 * copy stopped and never writes an event twice (a destination session that has a prefix of the source's
 * journal is compared with it and continued; one that has it whole is left as it is; one that differs is
 * refused, naming it and the seq). It ends by reading back every copied session's journal from the
 * destination and comparing it, event by event, with the source's. The source is only read.
 *
 * <p>Shared (user and app) variables: a first pass reads every copied session's events, and of all the
 * writes of one variable only the last (by the time of its event) is applied, with the step that made it;
 * so a variable that sessions of one user wrote in turn ends as the source has it. A variable no copied
 * session's journal wrote (e.g. one written by a session since deleted) is not copied.
 *
 * {@snippet :
 * try (StateStore from = StateStores.open("sqlite:threadline.db");
 *      StateStore to = StateStores.open("postgresql://app:pw@db:5432/threadline")) {
 *     CopyReport r = SessionCopy.between(from, to).tenant("acme").run();
 * }
 * }
 *
 * <p>Immutable and thread-safe; each {@link #run} is a copy of its own. Two copies into the same
 * destination sessions at once cannot duplicate an event (every append is a compare-and-set on the head)
 * but one of them may fail with a conflict. A session that a runtime is running in the destination (its
 * lease is held) is refused.
 */
public final class SessionCopy {
    private final StateStore from;
    private final StateStore to;
    private final String tenant;
    private final String session;
    private final Consumer<CopyReport.Copied> progress;

    private SessionCopy(StateStore from, StateStore to, String tenant, String session, Consumer<CopyReport.Copied> progress) {
        this.from = from;
        this.to = to;
        this.tenant = tenant;
        this.session = session;
        this.progress = progress;
    }

    /**
     * A copy of the default tenant's sessions from {@code from} to {@code to} (the caller keeps both open
     * during {@link #run} and closes them).
     *
     * @throws dev.threadline.core.error.InvalidInputException when a store is missing or both are the same instance
     */
    public static SessionCopy between(StateStore from, StateStore to) {
        Require.nonNull(from, "from");
        Require.nonNull(to, "to");
        Require.argument(from != to, "to", "the destination is the source store");
        return new SessionCopy(from, to, SessionInfo.DEFAULT_TENANT, null, c -> { });
    }

    /**
     * The same copy of tenant {@code tenant}'s sessions.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code tenant} is not a valid id
     */
    public SessionCopy tenant(String tenant) {
        return new SessionCopy(from, to, SessionInfo.checkId(tenant, "tenant"), session, progress);
    }

    /**
     * The same copy of only session {@code id}, with the sessions it branched from and its branches.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code id} is not a valid id
     */
    public SessionCopy session(String id) {
        return new SessionCopy(from, to, tenant, SessionInfo.checkId(id, "session"), progress);
    }

    /**
     * The same copy, telling {@code listener} of each session once it is copied and compared (on the
     * thread that runs the copy).
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code listener} is null
     */
    public SessionCopy onCopied(Consumer<CopyReport.Copied> listener) {
        return new SessionCopy(from, to, tenant, session, Require.nonNull(listener, "listener"));
    }

    /**
     * Copies, then compares every copied session's journal in both stores.
     *
     * @return what was copied and compared (no sessions when the tenant has none in the source)
     * @throws dev.threadline.core.error.SessionNotFoundException when a named session is not in the source
     * @throws dev.threadline.core.error.ThreadlineException      when a destination session differs from the
     *                                                            source's or is in use there, naming it;
     *                                                            sessions copied before it stay copied
     * @throws dev.threadline.core.error.StorageException         when either store fails; a rerun resumes
     */
    public CopyReport run() {
        // no runtime, so no runtime clock: the system's times the renewals of the destination's leases
        return new StoreCopy(from, to, progress, java.time.Clock.systemUTC()).copy(tenant, session);
    }
}
