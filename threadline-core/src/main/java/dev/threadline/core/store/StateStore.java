package dev.threadline.core.store;

/**
 * The storage SPI under the runtime, composed of small roles: the {@link SessionIndex}, the
 * {@link Journal} (conditional, fenced appends), its {@link JournalTail} and {@link TextSearch}, {@link Snapshots},
 * {@link SharedVariables}, {@link Leases}, the {@link CommandLog}, {@link HistoryPruning}, {@link DataKeys} and {@link Resealing}. Every method is atomic: it either
 * fully happens or changes nothing; reads never change anything.
 *
 * <p>A branch (fork or rewind) stores only its own events; the events it shares with its parent are
 * read from the parent (core's lineage reader does that walk, so a backend deals only with its own rows).
 * Session ids are unique per tenant.
 *
 * <p>Implementations are thread-safe and may be shared by many processes (each with its own store
 * instance on one database). Durable ones make an append durable before it returns. Every
 * implementation runs the whole conformance suite in {@code threadline-store-tck}.
 */
public interface StateStore extends SessionIndex, JournalTail, TextSearch, Snapshots, SharedVariables, Leases, CommandLog, HistoryPruning, DataKeys,
        Resealing,
        AutoCloseable {

    /** What this backend guarantees once a call returns, in one line (shown by the CLI and docs). */
    String durability();

    /**
     * Makes the bytes of what was deleted unrecoverable from the store's own files, as far as the backend
     * allows (an erasure calls it last), and says in one line what it did and what it could not. The
     * default does nothing and says so; a durable backend overrides it.
     *
     * @throws dev.threadline.core.error.StorageException when the store cannot be reached
     */
    default String scrub() {
        return "nothing scrubbed: this store keeps no files of its own";
    }

    /** Releases the store's resources. Idempotent; later calls of other methods fail with a StorageException. */
    @Override
    void close();
}
