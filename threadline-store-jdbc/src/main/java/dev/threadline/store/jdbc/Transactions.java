package dev.threadline.store.jdbc;

import java.util.function.Supplier;

/**
 * How a JDBC store runs its units of work: reads on a connection that sees the last commit, writes in a
 * transaction that commits before the call returns. {@code what} describes the work for an error
 * message ("append to session 's1'"); it is called only when something fails. Implementations are
 * thread-safe: any number of threads run units of work at once.
 */
public interface Transactions {
    /** Runs {@code work} as a read; its failure is a one-line {@link dev.threadline.core.error.StorageException}. */
    <T> T read(Supplier<String> what, SqlWork<T> work);

    /** Runs {@code work} in a write transaction and returns once it committed; nothing stays if it throws. */
    <T> T write(Supplier<String> what, SqlWork<T> work);
}
