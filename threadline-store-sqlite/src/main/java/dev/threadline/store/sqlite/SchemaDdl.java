package dev.threadline.store.sqlite;

import java.util.List;

/**
 * The statements of {@link Schema}: the version 4 tables and indexes, and the upgrades from earlier
 * versions. Stateless.
 */
final class SchemaDdl {
    private SchemaDdl() {}

    /**
     * Interrupt requests, at most one per session (see {@link InterruptRows}): a table of their own,
     * not columns of {@code sessions}, so that an ordinary append's row stays as it was and the table
     * can be added to a version 3 file as it is.
     */
    private static final String INTERRUPTS = """
            CREATE TABLE interrupts (
              tenant      TEXT NOT NULL,
              session_id  TEXT NOT NULL,
              epoch       INTEGER NOT NULL,
              reason      TEXT NOT NULL,
              PRIMARY KEY (tenant, session_id),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE) WITHOUT ROWID""";

    /**
     * The tables, parents first. Each session's lease is on its row so that the fencing check of an
     * append reads the row the append updates anyway; {@code commands} is written only by the steps
     * that carry a caller's command id.
     */
    static final List<String> TABLES = List.of("""
            CREATE TABLE sessions (
              tenant         TEXT NOT NULL,
              id             TEXT NOT NULL,
              user_id        TEXT NOT NULL,
              parent_id      TEXT,
              parent_seq     INTEGER NOT NULL,
              info           TEXT NOT NULL,
              head_seq       INTEGER NOT NULL,
              created_at     INTEGER NOT NULL,
              updated_at     INTEGER NOT NULL,
              v              INTEGER NOT NULL,
              lease_owner    TEXT,
              lease_epoch    INTEGER NOT NULL DEFAULT 0,
              lease_expires  INTEGER,
              PRIMARY KEY (tenant, id),
              FOREIGN KEY (tenant, parent_id) REFERENCES sessions(tenant, id))""",
            """
            CREATE TABLE events (
              tenant              TEXT NOT NULL,
              session_id          TEXT NOT NULL,
              seq                 INTEGER NOT NULL,
              step                INTEGER NOT NULL,
              time                TEXT NOT NULL,
              command_id          TEXT NOT NULL,
              source              TEXT NOT NULL,
              type                TEXT NOT NULL,
              touches_transcript  INTEGER NOT NULL,
              payload             TEXT NOT NULL,
              v                   INTEGER NOT NULL,
              PRIMARY KEY (tenant, session_id, seq),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE)""",
            """
            CREATE TABLE snapshots (
              tenant      TEXT NOT NULL,
              session_id  TEXT NOT NULL,
              seq         INTEGER NOT NULL,
              payload     TEXT NOT NULL,
              v           INTEGER NOT NULL,
              PRIMARY KEY (tenant, session_id, seq),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE)""",
            """
            CREATE TABLE IF NOT EXISTS variables (
              scope      TEXT NOT NULL,
              scope_key  TEXT NOT NULL,
              name       TEXT NOT NULL,
              value      TEXT NOT NULL,
              v          INTEGER NOT NULL,
              PRIMARY KEY (scope, scope_key, name))""",
            """
            CREATE TABLE commands (
              tenant       TEXT NOT NULL,
              session_id   TEXT NOT NULL,
              command_id   TEXT NOT NULL,
              fingerprint  TEXT NOT NULL,
              seq          INTEGER NOT NULL,
              result       TEXT,
              PRIMARY KEY (tenant, session_id, command_id),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE) WITHOUT ROWID""",
            INTERRUPTS);

    /**
     * The indexes beside the primary keys. None holds {@code updated_at}, which every append changes
     * (ADR 0011): a listing sorts the tenant's rows instead.
     */
    static final List<String> INDEXES = List.of(
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)",
            "CREATE INDEX sessions_by_parent ON sessions(tenant, parent_id) WHERE parent_id IS NOT NULL");

    /** Version 1 to 2: swap the two sessions indexes that held {@code updated_at}. Rows are unchanged. */
    static final List<String> UPGRADE_1_TO_2 = List.of(
            "DROP INDEX IF EXISTS sessions_by_tenant",
            "DROP INDEX IF EXISTS sessions_by_user",
            "CREATE INDEX sessions_by_tenant ON sessions(tenant, id)",
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)");

    /**
     * Version 2 to 3: SQLite cannot change a primary key, so the keyed tables are rebuilt: the old ones
     * are renamed aside, the new ones created and filled (each event and snapshot gets its session's
     * tenant), the old ones dropped (their indexes with them), then the new indexes made. Leases start
     * free at epoch 0; there are no command records yet. Runs inside the caller's transaction, with
     * foreign keys checked at its commit.
     */
    static final List<String> UPGRADE_2_TO_3 = List.of(
            "ALTER TABLE snapshots RENAME TO snapshots_v2",
            "ALTER TABLE events RENAME TO events_v2",
            "ALTER TABLE sessions RENAME TO sessions_v2",
            TABLES.get(0), TABLES.get(1), TABLES.get(2), TABLES.get(4),
            "INSERT INTO sessions (tenant, id, user_id, parent_id, parent_seq, info, head_seq, created_at, updated_at, v)"
                    + " SELECT tenant, id, user_id, parent_id, parent_seq, info, head_seq, created_at, updated_at, v FROM sessions_v2",
            "INSERT INTO events (tenant, session_id, seq, step, time, command_id, source, type, touches_transcript, payload, v)"
                    + " SELECT s.tenant, e.session_id, e.seq, e.step, e.time, e.command_id, e.source, e.type,"
                    + " e.touches_transcript, e.payload, e.v FROM events_v2 e JOIN sessions_v2 s ON s.id = e.session_id",
            "INSERT INTO snapshots (tenant, session_id, seq, payload, v)"
                    + " SELECT s.tenant, n.session_id, n.seq, n.payload, n.v FROM snapshots_v2 n JOIN sessions_v2 s ON s.id = n.session_id",
            "DROP TABLE snapshots_v2",
            "DROP TABLE events_v2",
            "DROP TABLE sessions_v2",
            INDEXES.get(0), INDEXES.get(1));

    /** Version 3 to 4: the {@code interrupts} table; nothing else changes. */
    static final List<String> UPGRADE_3_TO_4 = List.of(INTERRUPTS);
}
