package dev.threadline.store.postgres;

import dev.threadline.core.error.StorageException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The schema of a Threadline PostgreSQL database, as an ordered list of migrations: element
 * {@code i} brings the schema from version {@code i} to {@code i + 1}, and the table
 * {@code schema_version} holds one row per version applied. Opening a store applies the missing
 * ones in order, each in its own transaction whose first statement inserts that version's row: of two
 * processes upgrading at once, the second waits on that row, fails on its key, and reads the version
 * again (ADR 0017). A database of a newer version than this code knows is refused. Stateless.
 */
final class Migrations {
    private Migrations() {}

    /** Version 1: the tables. Times are epoch nanoseconds (exact, as the clock gave them). */
    static final Migration V1 = new Migration(1, "sessions, events, snapshots, variables, commands", List.of("""
            CREATE TABLE sessions (
              tenant         text    NOT NULL,
              id             text    NOT NULL,
              user_id        text    NOT NULL,
              parent_id      text,
              parent_seq     bigint  NOT NULL,
              info           text    NOT NULL,
              v              integer NOT NULL,
              head_seq       bigint  NOT NULL,
              created_at     bigint  NOT NULL,
              updated_at     bigint  NOT NULL,
              lease_owner    text,
              lease_epoch    bigint  NOT NULL DEFAULT 0,
              lease_expires  bigint,
              PRIMARY KEY (tenant, id),
              FOREIGN KEY (tenant, parent_id) REFERENCES sessions (tenant, id))""",
            "CREATE INDEX sessions_by_parent ON sessions (tenant, parent_id) WHERE parent_id IS NOT NULL",
            "CREATE INDEX sessions_by_user ON sessions (tenant, user_id, id)",
            """
            CREATE TABLE events (
              tenant              text    NOT NULL,
              session_id          text    NOT NULL,
              seq                 bigint  NOT NULL,
              step                bigint  NOT NULL,
              time                bigint  NOT NULL,
              command_id          text    NOT NULL,
              source              text    NOT NULL,
              type                text    NOT NULL,
              touches_transcript  boolean NOT NULL,
              payload             text    NOT NULL,
              v                   integer NOT NULL,
              PRIMARY KEY (tenant, session_id, seq),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions (tenant, id))""",
            """
            CREATE TABLE snapshots (
              tenant      text    NOT NULL,
              session_id  text    NOT NULL,
              seq         bigint  NOT NULL,
              payload     text    NOT NULL,
              v           integer NOT NULL,
              PRIMARY KEY (tenant, session_id, seq),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions (tenant, id))""",
            """
            CREATE TABLE variables (
              scope      text    NOT NULL,
              scope_key  text    NOT NULL,
              name       text    NOT NULL,
              value      text    NOT NULL,
              v          integer NOT NULL,
              PRIMARY KEY (scope, scope_key, name))""",
            """
            CREATE TABLE commands (
              tenant       text   NOT NULL,
              session_id   text   NOT NULL,
              command_id   text   NOT NULL,
              fingerprint  text   NOT NULL,
              seq          bigint NOT NULL,
              result       text,
              PRIMARY KEY (tenant, session_id, command_id),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions (tenant, id))"""));

    /**
     * Version 2: listing through indexes. The metadata moves beside the JSON into a {@code jsonb}
     * column (filled from the rows there are) with a GIN index for the filter's {@code @>}, and the
     * listing order (updated_at DESC, id) gets an index per tenant and per tenant and user, so a page
     * starts at its cursor instead of sorting the tenant's rows.
     */
    static final Migration V2 = new Migration(2, "metadata column and listing indexes", List.of(
            "ALTER TABLE sessions ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb",
            "UPDATE sessions SET metadata = COALESCE(info::jsonb -> 'metadata', '{}'::jsonb)",
            "DROP INDEX sessions_by_user",
            "CREATE INDEX sessions_recent ON sessions (tenant, updated_at DESC, id)",
            "CREATE INDEX sessions_user_recent ON sessions (tenant, user_id, updated_at DESC, id)",
            "CREATE INDEX sessions_metadata ON sessions USING gin (metadata jsonb_path_ops)"));

    /**
     * Version 3: interrupt requests (see {@link InterruptRows}), at most one per session, in a table of
     * their own so an ordinary append's row and statement stay as they were.
     */
    static final Migration V3 = new Migration(3, "interrupt requests", List.of("""
            CREATE TABLE interrupts (
              tenant      text   NOT NULL,
              session_id  text   NOT NULL,
              epoch       bigint NOT NULL,
              reason      text   NOT NULL,
              PRIMARY KEY (tenant, session_id),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions (tenant, id))"""));

    /**
     * A command id in the canonical lower-case UUID form, which {@code uuid} reads and prints back as
     * the same text (what the runtime makes); any other id stays text ({@code command_text}).
     */
    static final String CANONICAL_UUID = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

    /**
     * The lean journal of version 4 (ADR 0025, 0028). Columns in an order that needs no alignment
     * padding: the four {@code bigint}s, the 16-byte {@code uuid}, the {@code smallint} version and the
     * {@code boolean}, then the short texts and the payload. {@code sid} is the session's number
     * ({@code sessions.sid}); every statement finds it from {@code (tenant, id)} inside the statement.
     * A command id in the runtime's UUID form is {@code command_id} (16 bytes); a caller's own id is
     * {@code command_text}; exactly one of them is set. {@code payload} is NULL once the row is sealed
     * into a segment.
     */
    static final String EVENTS_V4 = """
            CREATE TABLE events (
              sid                 bigint   NOT NULL,
              seq                 bigint   NOT NULL,
              step                bigint   NOT NULL,
              time                bigint   NOT NULL,
              command_id          uuid,
              v                   smallint NOT NULL,
              touches_transcript  boolean  NOT NULL,
              source              text     NOT NULL,
              command_text        text,
              payload             text,
              PRIMARY KEY (sid, seq),
              FOREIGN KEY (sid) REFERENCES sessions (sid),
              CHECK ((command_id IS NULL) <> (command_text IS NULL)))""";

    /**
     * Version 4: the lean journal and sealed transcript segments (ADR 0028). Sessions get a number
     * ({@code sid}, from the sequence {@code session_sids}, unique); the events move to a table keyed
     * by {@code (sid, seq)} with the time as nanoseconds (as before), no {@code type} column (the
     * payload names it) and UUID command ids as 16 bytes, copied from the old one in this migration's
     * transaction; and the {@code segments} table, whose payload column is stored out of line
     * uncompressed ({@code STORAGE EXTERNAL}; see {@link SegmentRows}). Nothing is sealed by the
     * migration: the next snapshot of each session does it. And the listing indexes, rebuilt ascending
     * (read backwards), with the GIN index's pending list off: less index per append (see below).
     */
    static final Migration V4 = new Migration(4, "lean events keyed by session number, sealed transcript segments,"
            + " ascending listing indexes", List.of(
            "CREATE SEQUENCE session_sids",
            "ALTER TABLE sessions ADD COLUMN sid bigint",
            "UPDATE sessions SET sid = nextval('session_sids')",
            "ALTER TABLE sessions ALTER COLUMN sid SET DEFAULT nextval('session_sids'), ALTER COLUMN sid SET NOT NULL",
            "CREATE UNIQUE INDEX sessions_by_sid ON sessions (sid)",
            "ALTER TABLE events RENAME TO events_v3",
            "ALTER INDEX events_pkey RENAME TO events_v3_pkey",
            EVENTS_V4,
            "INSERT INTO events (sid, seq, step, time, command_id, v, touches_transcript, source, command_text, payload)"
                    + " SELECT s.sid, e.seq, e.step, e.time,"
                    + " CASE WHEN e.command_id ~ '" + CANONICAL_UUID + "' THEN e.command_id::uuid END,"
                    + " e.v, e.touches_transcript, e.source,"
                    + " CASE WHEN e.command_id ~ '" + CANONICAL_UUID + "' THEN NULL ELSE e.command_id END, e.payload"
                    + " FROM events_v3 e JOIN sessions s ON s.tenant = e.tenant AND s.id = e.session_id",
            "DROP TABLE events_v3",
            """
            CREATE TABLE segments (
              sid        bigint   NOT NULL,
              last_seq   bigint   NOT NULL,
              first_seq  bigint   NOT NULL,
              v          smallint NOT NULL,
              payloads   text     NOT NULL,
              PRIMARY KEY (sid, last_seq),
              UNIQUE (sid, first_seq),
              FOREIGN KEY (sid) REFERENCES sessions (sid))""",
            "ALTER TABLE segments ALTER COLUMN payloads SET STORAGE EXTERNAL",
            // every append rewrites its session row with a new updated_at, which the listing indexes hold, so
            // the update is never HOT and adds an entry to each index: ascending (read backwards for the
            // listing's updated_at DESC, id) they take it at their right end, where a leaf split leaves
            // pages full rather than half (the GIN index's pending list was turned off here too: version 5 turns it on again)
            "DROP INDEX sessions_recent",
            "CREATE INDEX sessions_recent ON sessions (tenant, updated_at, id DESC)",
            "DROP INDEX sessions_user_recent",
            "CREATE INDEX sessions_user_recent ON sessions (tenant, user_id, updated_at, id DESC)",
            "ALTER INDEX sessions_metadata SET (fastupdate = off)"));

    /**
     * Version 5: the GIN index of {@code metadata} takes new entries in its pending list again. With
     * {@code fastupdate = off} (version 4) every append's non-HOT session update put a heap pointer into
     * the posting tree of the same few keys (most sessions' metadata is {@code {}}), whose WAL grows with the
     * tree: the WAL per one-message step went from 2.3 KB at 10 messages to 4.3 KB at 10,000
     * ({@code threadline bench --store postgresql}), where the pending list keeps it flat (1.84 and 1.86 KB).
     * Regression test: {@code PostgresPlansTest.theMetadataIndexKeepsItsPendingListSoTheWalPerStepStaysFlat}.
     */
    static final Migration V5 = new Migration(5, "metadata index with its pending list again", List.of(
            "ALTER INDEX sessions_metadata SET (fastupdate = on)"));

    /**
     * The length of a recency period ({@code sessions.recent = updated_at / RECENT_NANOS}, truncated
     * as both Java and PostgreSQL divide integers): 10 s. Part of the schema: every process must
     * compute it alike, or the listing order would not follow {@code updated_at}.
     */
    static final long RECENT_NANOS = 10_000_000_000L;

    /** The recency period of a time in epoch nanoseconds. */
    static long recent(long epochNanos) {
        return epochNanos / RECENT_NANOS;
    }

    /**
     * Version 6: a step rewrites a narrow row, HOT (ADR 0030). Until now every append rewrote the wide
     * session row (its {@code SessionInfo} JSON, metadata and all) with a new {@code updated_at}, which
     * the listing indexes hold: never HOT, so a new copy of the row elsewhere plus an entry in each of
     * the table's six indexes (and the GIN pending list), and the journal's foreign key checked the row
     * again. Now what a step and a lease change move lives in {@code heads}, one narrow row per session:
     * the head, the lease, {@code updated_at}, and {@code recent} ({@code updated_at} in whole
     * {@link #RECENT_NANOS 10-second} periods), with the tenant and user copied for the listing indexes,
     * which hold {@code recent}. A step changes an indexed column only when it moves its session into a
     * later period, so its update is HOT, and the session row is written only when the session is. {@code heads} is keyed by
     * {@code (tenant, id)} like {@code sessions}, so a step finds its row in one probe, and carries {@code sid}
     * for the events it inserts.
     * The listing orders by {@code recent DESC, updated_at DESC, id}: the same order, read from the index
     * and sorted within each period. The journal's foreign key goes: each insert of events takes
     * {@code sid} from the heads row it has just moved or created and holds locked, and a deletion locks
     * that row before it deletes anything.
     */
    static final Migration V6 = new Migration(6, "heads: the head, lease and recency of each session in a narrow row of its own", List.of(
            """
            CREATE TABLE heads (
              sid            bigint NOT NULL,
              head_seq       bigint NOT NULL,
              lease_epoch    bigint NOT NULL,
              updated_at     bigint NOT NULL,
              recent         bigint NOT NULL,
              lease_expires  bigint,
              tenant         text   NOT NULL,
              id             text   NOT NULL,
              user_id        text   NOT NULL,
              lease_owner    text,
              PRIMARY KEY (tenant, id),
              FOREIGN KEY (tenant, id) REFERENCES sessions (tenant, id))""",
            "INSERT INTO heads (sid, head_seq, lease_epoch, updated_at, recent, lease_expires, tenant, id, user_id, lease_owner)"
                    + " SELECT sid, head_seq, lease_epoch, updated_at, updated_at / " + RECENT_NANOS
                    + ", lease_expires, tenant, id, user_id, lease_owner FROM sessions",
            "CREATE INDEX heads_recent ON heads (tenant, recent)",
            "CREATE INDEX heads_user_recent ON heads (tenant, user_id, recent)",
            "DROP INDEX sessions_recent",
            "DROP INDEX sessions_user_recent",
            "ALTER TABLE sessions DROP COLUMN head_seq, DROP COLUMN updated_at, DROP COLUMN lease_owner,"
                    + " DROP COLUMN lease_epoch, DROP COLUMN lease_expires",
            "ALTER TABLE events DROP CONSTRAINT events_sid_fkey"));

    /** A session row's stored expiry ({@code SessionInfo.expiresAt}, ISO-8601 text in its info), as SQL. */
    private static final String STORED_EXPIRY = "(info::jsonb ->> 'expiresAt')";

    /**
     * {@link #STORED_EXPIRY} as epoch nanoseconds, exact: the whole seconds through {@code timestamptz}
     * (which would round a fraction to microseconds), the fraction's digits added as they are written.
     */
    private static final String STORED_EXPIRY_NANOS = "extract(epoch FROM regexp_replace(" + STORED_EXPIRY
            + ", '\\.[0-9]+Z$', 'Z')::timestamptz)::numeric * 1000000000"
            + " + COALESCE(rpad(substring(" + STORED_EXPIRY + " FROM '\\.([0-9]{1,9})Z$'), 9, '0')::numeric, 0)";

    /**
     * Version 7: each session's expiry beside its info, as epoch nanoseconds (NULL: never), and the
     * index retention reads the expired sessions through, oldest first ({@code SessionIndex.expired}).
     * Existing rows take it from their stored info (saturated like {@code EpochNanos} outside 1678 to
     * 2262); rows without one stay NULL.
     */
    static final Migration V7 = new Migration(7, "sessions.expires_at and its index, for retention", List.of(
            "ALTER TABLE sessions ADD COLUMN expires_at bigint",
            "UPDATE sessions SET expires_at = CASE"
                    + " WHEN " + STORED_EXPIRY + " ~ '^[0-9]{4}-' THEN GREATEST(LEAST(" + STORED_EXPIRY_NANOS
                    + ", 9223372036854775807), -9223372036854775808)::bigint"
                    + " WHEN " + STORED_EXPIRY + " LIKE '+%' THEN 9223372036854775807"
                    + " ELSE -9223372036854775808 END"
                    + " WHERE " + STORED_EXPIRY + " IS NOT NULL",
            "CREATE INDEX sessions_by_expiry ON sessions (expires_at, tenant, id) WHERE expires_at IS NOT NULL"));

    /**
     * Version 8: the full-text index of the messages (issue 38, {@link PgText}): one row per message,
     * its words as a {@code tsvector} (configuration {@code simple}) under a GIN index, written by the
     * step's own statement. Messages journalled before it are indexed by {@link PgText#indexExisting}
     * right after the upgrade.
     */
    static final Migration V8 = new Migration(8, "journal_text: the full-text index of the messages", List.of("""
            CREATE TABLE journal_text (
              sid   bigint NOT NULL,
              seq   bigint NOT NULL,
              role  text   NOT NULL,
              time  bigint NOT NULL,
              text  text   NOT NULL,
              tsv   tsvector NOT NULL,
              PRIMARY KEY (sid, seq))""",
            "CREATE INDEX journal_text_words ON journal_text USING gin (tsv)"));

    /**
     * Version 9: the bases of pruned histories (ADR 0045): one row per pruned session, the state its journal
     * starts from as the record's JSON (messages and all), deleted with the session.
     */
    static final Migration V9 = new Migration(9, "history_bases: the bases of pruned histories", List.of("""
            CREATE TABLE history_bases (
              sid      bigint   NOT NULL PRIMARY KEY,
              seq      bigint   NOT NULL,
              v        smallint NOT NULL,
              payload  text     NOT NULL)"""));

    /**
     * Version 10: the tenants' wrapped data keys of encryption at rest (ADR 0049); the primary key decides
     * which of two processes adds a number.
     */
    static final Migration V10 = new Migration(10, "data_keys: the tenants' wrapped data keys", List.of("""
            CREATE TABLE data_keys (
              tenant      text    NOT NULL,
              number      integer NOT NULL,
              kek_id      text    NOT NULL,
              wrapped     bytea   NOT NULL,
              created_ms  bigint  NOT NULL,
              PRIMARY KEY (tenant, number))"""));

    /** Every migration, in order: element i brings version i to i + 1. */
    static final List<Migration> ALL = List.of(V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, SealedColumns.V11);

    /** The version this code writes. */
    static int latest() {
        return ALL.size();
    }

    /**
     * Brings the schema of {@code c}'s current schema to {@link #latest()}, creating it from nothing
     * when empty. {@code c} is in auto-commit mode and is left so.
     *
     * @return the version the database had before
     * @throws StorageException when the database is of a newer version than this code
     */
    static int upgrade(Connection c, String where) throws SQLException {
        createVersionTable(c);
        int before = -1;
        for (int round = 0; ; round++) {
            int current = current(c);
            if (round > 10 * latest() + 10) {
                throw new StorageException("postgres store " + where + ": the schema stays at version " + current
                        + " although its upgrade was tried " + round + " times");
            }
            if (before < 0) {
                before = current;
            }
            if (current > latest()) {
                throw new StorageException("postgres store " + where + ": schema version " + current
                        + " was written by a newer Threadline (this one knows up to " + latest() + "); upgrade Threadline");
            }
            if (current == latest()) {
                return before;
            }
            apply(c, ALL.get(current));
        }
    }

    /** The highest version applied (0 for an empty database). */
    static int current(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void createVersionTable(Connection c) throws SQLException {
        String ddl = "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, description text NOT NULL,"
                + " applied_at timestamptz NOT NULL DEFAULT now())";
        for (int attempt = 1; ; attempt++) {
            try (Statement s = c.createStatement()) {
                s.execute(ddl);
                return;
            } catch (SQLException e) {
                // two processes creating it at once: one of them fails on the catalog's unique key; the table exists then
                // (a unique key of the catalog, the table, or its row type: which one depends on the timing)
                boolean raced = "23505".equals(e.getSQLState()) || "42P07".equals(e.getSQLState())
                        || "42710".equals(e.getSQLState());
                if (!raced || attempt >= 3) {
                    throw e;
                }
            }
        }
    }

    /** Applies one migration in its own transaction; if another process applied it meanwhile, changes nothing. */
    private static void apply(Connection c, Migration m) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO schema_version (version, description) VALUES (?, ?)")) {
                ps.setInt(1, m.version());
                ps.setString(2, m.description());
                ps.executeUpdate();
            }
            try (Statement s = c.createStatement()) {
                for (String sql : m.statements()) {
                    s.execute(sql);
                }
            }
            if (m == V8) {
                PgText.indexExisting(c); // the messages journalled before the index, in the migration's transaction
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            if (!"23505".equals(e.getSQLState()) && !Db.retryable(e)) {
                throw e;
            }
            // another process holds or applied this version: read the version again
        } finally {
            c.setAutoCommit(true);
        }
    }
}
