package dev.threadline.store.postgres;

import dev.threadline.harness.servers.PgBouncerProcess;
import dev.threadline.harness.servers.PgServer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The pgbouncer of the tests behind a transaction pooler: one in front of the shared PostgreSQL server,
 * started on first use and stopped when the JVM exits. Without pgbouncer installed a test fails when
 * CI=true, saying how to get it, and is skipped otherwise.
 */
final class PgBouncers {
    private static PgBouncerProcess shared;

    private PgBouncers() {}

    /** Fails (CI=true) or skips the calling test when pgbouncer is not installed. */
    static void require() {
        if (PgBouncerProcess.binary().isEmpty()) {
            String message = "pgbouncer is not installed: run '" + PgBouncerProcess.INSTALL + "'";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(message + " (CI=true: the pgbouncer tests must run)");
            }
            Assumptions.abort(message);
        }
    }

    /** The shared pgbouncer (transaction pooling) in front of {@link PgServer#shared()}. */
    static synchronized PgBouncerProcess shared() {
        require();
        if (shared == null) {
            shared = PgBouncerProcess.start(PgServer.shared());
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "pgbouncer-test-stop"));
        }
        return shared;
    }

    /** The URL of database {@code db} (created if needed) through the shared pgbouncer, with {@code direct=} the server. */
    static String url(String db) {
        PgServer.shared().createDatabase(db);
        return shared().url(db) + "?" + Pooling.PARAM + "=127.0.0.1:" + PgServer.shared().port();
    }
}
