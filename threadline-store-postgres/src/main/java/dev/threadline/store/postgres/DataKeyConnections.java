package dev.threadline.store.postgres;

import dev.threadline.store.jdbc.SqlWork;
import dev.threadline.store.jdbc.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * Where a sealing store reads and adds its tenants' data keys (ADR 0049): each on a connection of its own, outside
 * the pool. A data key is looked up while a pooled connection is held: a read that meets a payload sealed under a
 * data key this process has not unwrapped yet asks for it in the middle of its result. Were the lookup to wait for a
 * pooled connection, as many such reads at once as the pool has connections (a process starting under load) would
 * each hold one and wait for another until the pool wait ran out. A lookup happens once per data key and process
 * (the sealer keeps what it unwrapped), so a connection opened for it costs nothing that matters. To the server
 * itself when the pool goes through a pooler, with the store's schema. Thread-safe.
 */
final class DataKeyConnections implements Transactions {
    private final Db db;
    private final String schema;

    DataKeyConnections(Db db, String schema) {
        this.db = db;
        this.schema = schema;
    }

    @Override
    public <T> T read(Supplier<String> what, SqlWork<T> work) {
        try (Connection c = db.dedicated(schema)) {
            return work.run(c);
        } catch (SQLException e) {
            throw db.failure(what.get(), e);
        }
    }

    @Override
    public <T> T write(Supplier<String> what, SqlWork<T> work) {
        try (Connection c = db.dedicated(schema)) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw db.failure(what.get(), e);
        }
    }
}
