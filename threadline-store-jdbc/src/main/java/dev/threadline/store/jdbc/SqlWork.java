package dev.threadline.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work a store runs on one connection, inside whatever transaction the store opened for it. Run by one
 * thread at a time, the one holding the connection.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface SqlWork<T> {
    /**
     * Runs on {@code c}; an {@link SQLException} fails the unit of work (the store rolls it back).
     *
     * @throws SQLException when the database fails the statement
     */
    T run(Connection c) throws SQLException;
}
