package dev.threadline.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Opening a PostgreSQL store: the schema created or upgraded (ADR 0017), whether followers can be
 * notified, and the durability line the server's {@code synchronous_commit} gives. Stateless.
 */
final class Opening {
    private Opening() {}

    /** Prepares the schema on {@code db} and says what opening found. */
    static Prepared prepare(Db db, PostgresStateStore.Options opts) {
        Pooling.check(db);
        return db.setup(() -> "prepare the schema", c -> {
            Prepared current = probe(c, opts.notifications());
            if (current != null) {
                return current;
            }
            if (opts.schema() != null) {
                createSchema(c, opts.schema());
                c.setSchema(opts.schema());
            }
            Migrations.upgrade(c, db.url().shown());
            return new Prepared(opts.notifications() && notifySupported(c), describeDurability(c));
        });
    }

    /** What opening found: whether followers are notified, and the durability line. */
    record Prepared(boolean notifications, String durability) {}

    /**
     * The usual open, of a schema this code wrote before, in one round trip: its version, the
     * server's {@code synchronous_commit} and (when notifications are wanted) a call of {@code pg_notify},
     * in one statement. Null when the statement fails (no schema or no {@code schema_version} yet, a
     * database without {@code pg_notify}) or finds another version: then the open takes the long way,
     * a statement each (create the schema, upgrade it, try the notify, read the setting), which also
     * says what was wrong. The connection is in auto-commit mode, so a failed statement leaves nothing
     * behind. (The notify's empty payload is one every listener ignores, as the long way's is.)
     */
    private static Prepared probe(Connection c, boolean notifications) {
        String sql = "SELECT COALESCE(MAX(version), 0), current_setting('synchronous_commit')"
                + (notifications ? ", pg_notify('" + HeadListener.CHANNEL + "', '') IS NULL" : "") + " FROM schema_version";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next() || rs.getInt(1) != Migrations.latest()) {
                return null;
            }
            return new Prepared(notifications, durability(rs.getString(2)));
        } catch (SQLException e) {
            return null;
        }
    }

    /**
     * Creates the schema unless it exists. {@code IF NOT EXISTS} is no guard against a store of another
     * process creating it at the same moment: both see no schema, and the later insert into the catalog
     * fails on its unique index (23505; 42P06 if it saw the other's commit). Then the schema is there,
     * which is all this needs. {@code c} is in auto-commit mode, so the failed statement leaves nothing behind.
     */
    private static void createSchema(Connection c, String schema) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
        } catch (SQLException e) {
            if (!"23505".equals(e.getSQLState()) && !"42P06".equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    /** Whether the database has {@code pg_notify} (PostgreSQL does; some compatible databases do not). */
    private static boolean notifySupported(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_notify('" + HeadListener.CHANNEL + "', '')");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static String describeDurability(Connection c) {
        String sync;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW synchronous_commit")) {
            sync = rs.next() ? rs.getString(1) : "unknown";
        } catch (SQLException e) {
            sync = "unknown";
        }
        return durability(sync);
    }

    /** The durability line for a {@code synchronous_commit} setting. */
    private static String durability(String sync) {
        if (sync.equals("off")) {
            return "postgresql, synchronous_commit=off: an acknowledged append survives a process kill; a server crash"
                    + " may drop the last commits (up to 3x wal_writer_delay), never half of one";
        }
        return "postgresql, synchronous_commit=" + sync + ": an acknowledged append is committed to the server's WAL"
                + " and survives a crash of this process and of the server (with fsync on, as by default)";
    }
}
