package dev.threadline.store.sqlite;

import java.util.List;

/**
 * The statements of {@link Schema}: the version 7 tables and indexes, and the upgrades from earlier
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
     * The journal (version 5, ADR 0025): one row per event, keyed by its session's number and seq and
     * stored in that key's b-tree
     * ({@code WITHOUT ROWID}), so an append writes one leaf instead of a table leaf and a key leaf; the
     * time is epoch nanoseconds ({@code INTEGER}, 8 bytes instead of 30 of text) and the event's type is
     * not repeated beside the payload that already names it. A command id in the runtime's UUID form is
     * stored as its 16 bytes, any other as text (so the column is declared BLOB: no conversion). The last event of each append carries
     * {@code appended}: the store's clock at the append minus the event's time, in nanoseconds (a few
     * bytes), from which the session's last update is read; the other events leave it NULL (no bytes).
     */
    private static final String EVENTS = """
            CREATE TABLE events (
              sid                 INTEGER NOT NULL,
              seq                 INTEGER NOT NULL,
              step                INTEGER NOT NULL,
              time                INTEGER NOT NULL,
              command_id          BLOB NOT NULL,
              source              TEXT NOT NULL,
              touches_transcript  INTEGER NOT NULL,
              payload             TEXT,
              v                   INTEGER NOT NULL,
              appended            INTEGER,
              PRIMARY KEY (sid, seq),
              FOREIGN KEY (sid) REFERENCES sessions(sid) ON DELETE CASCADE) WITHOUT ROWID""";

    /** Command records (since version 3): written only by the steps that carry a caller's command id. */
    private static final String COMMANDS = """
            CREATE TABLE commands (
              tenant       TEXT NOT NULL,
              session_id   TEXT NOT NULL,
              command_id   TEXT NOT NULL,
              fingerprint  TEXT NOT NULL,
              seq          INTEGER NOT NULL,
              result       TEXT,
              PRIMARY KEY (tenant, session_id, command_id),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE) WITHOUT ROWID""";

    /** The events table of version 5, whose payload was never NULL (what the upgrade from 4 makes). */
    private static final String EVENTS_V5 = """
            CREATE TABLE events (
              sid                 INTEGER NOT NULL,
              seq                 INTEGER NOT NULL,
              step                INTEGER NOT NULL,
              time                INTEGER NOT NULL,
              command_id          BLOB NOT NULL,
              source              TEXT NOT NULL,
              touches_transcript  INTEGER NOT NULL,
              payload             TEXT NOT NULL,
              v                   INTEGER NOT NULL,
              appended            INTEGER,
              PRIMARY KEY (sid, seq),
              FOREIGN KEY (sid) REFERENCES sessions(sid) ON DELETE CASCADE) WITHOUT ROWID""";

    /**
     * Sealed transcript segments (version 6, ADR 0028): when a snapshot is saved, the session's own
     * transcript events up to it (at least {@code Segments.MIN_EVENTS} of them) move into one row here, a JSON
     * array of their payloads in seq order, and their event rows keep only the envelope (payload NULL).
     * A cold load then parses one array per segment instead of one payload per row. A rowid table: its
     * rows are tens of kilobytes, which an index b-tree keeps worse than a table b-tree.
     */
    private static final String SEGMENTS = """
            CREATE TABLE segments (
              sid        INTEGER NOT NULL,
              last_seq   INTEGER NOT NULL,
              first_seq  INTEGER NOT NULL,
              v          INTEGER NOT NULL,
              payloads   TEXT NOT NULL,
              UNIQUE (sid, last_seq),
              FOREIGN KEY (sid) REFERENCES sessions(sid) ON DELETE CASCADE)""";

    /** The bases of pruned histories (version 9, ADR 0045): a session's base, as the record's JSON, gone with the session. */
    static final String HISTORY_BASES = """
            CREATE TABLE history_bases (
              sid      INTEGER PRIMARY KEY,
              seq      INTEGER NOT NULL,
              v        INTEGER NOT NULL,
              payload  TEXT NOT NULL,
              FOREIGN KEY (sid) REFERENCES sessions(sid) ON DELETE CASCADE)""";

    /**
     * The tenants' wrapped data keys of encryption at rest (version 10, ADR 0049): never a key in clear; the
     * primary key decides which of two processes adds a number.
     */
    static final String DATA_KEYS = """
            CREATE TABLE data_keys (
              tenant      TEXT NOT NULL,
              number      INTEGER NOT NULL,
              kek_id      TEXT NOT NULL,
              wrapped     BLOB NOT NULL,
              created_ms  INTEGER NOT NULL,
              PRIMARY KEY (tenant, number)) WITHOUT ROWID""";

    /** Snapshots (version 5): small rows, kept in their key's b-tree like the events. */
    private static final String SNAPSHOTS = """
            CREATE TABLE snapshots (
              tenant      TEXT NOT NULL,
              session_id  TEXT NOT NULL,
              seq         INTEGER NOT NULL,
              payload     TEXT NOT NULL,
              v           INTEGER NOT NULL,
              PRIMARY KEY (tenant, session_id, seq),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE) WITHOUT ROWID""";

    /**
     * Sessions (version 5): no head column. The head is the journal's last seq (or the branch point of a
     * branch with no events of its own) and the last update the time of the last append, both read from
     * the journal's key, so an append writes nothing here (ADR 0025). {@code updated_at} is the time the
     * row was created, and stands for the last update while the session has no events of its own.
     * {@code sid} is the session's number in this file (one more than the highest at its creation,
     * unique by {@code sessions_by_sid}): the journal is keyed by it instead of 45 bytes of tenant and
     * id text in every event row.
     */
    private static final String SESSIONS = """
            CREATE TABLE sessions (
              tenant         TEXT NOT NULL,
              id             TEXT NOT NULL,
              user_id        TEXT NOT NULL,
              parent_id      TEXT,
              parent_seq     INTEGER NOT NULL,
              info           TEXT NOT NULL,
              created_at     INTEGER NOT NULL,
              updated_at     INTEGER NOT NULL,
              v              INTEGER NOT NULL,
              lease_owner    TEXT,
              lease_epoch    INTEGER NOT NULL DEFAULT 0,
              lease_expires  INTEGER,
              sid            INTEGER NOT NULL DEFAULT 0,
              expires_at     INTEGER,
              PRIMARY KEY (tenant, id),
              FOREIGN KEY (tenant, parent_id) REFERENCES sessions(tenant, id))""";

    /** The expiry index (version 7): retention reads the expired sessions, oldest first, off its front. */
    private static final String SESSIONS_BY_EXPIRY =
            "CREATE INDEX sessions_by_expiry ON sessions(expires_at, tenant, id) WHERE expires_at IS NOT NULL";

    /** The sessions table of versions 3 and 4 (frozen), with its head column. */
    private static final String SESSIONS_V3 = """
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
              FOREIGN KEY (tenant, parent_id) REFERENCES sessions(tenant, id))""";

    /** The events table of versions 3 and 4, which the upgrade from version 2 creates (frozen: never today's). */
    private static final String EVENTS_V3 = """
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
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE)""";

    /** The snapshots table of versions 3 and 4 (frozen). */
    private static final String SNAPSHOTS_V3 = """
            CREATE TABLE snapshots (
              tenant      TEXT NOT NULL,
              session_id  TEXT NOT NULL,
              seq         INTEGER NOT NULL,
              payload     TEXT NOT NULL,
              v           INTEGER NOT NULL,
              PRIMARY KEY (tenant, session_id, seq),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE)""";

    /**
     * The tables, parents first. Each session's lease is on its row so that the fencing check of an
     * append reads the row the append updates anyway; {@code commands} is written only by the steps
     * that carry a caller's command id.
     */
    static final List<String> TABLES = List.of(SESSIONS,
            EVENTS,
            SNAPSHOTS,
            SEGMENTS,
            """
            CREATE TABLE IF NOT EXISTS variables (
              scope      TEXT NOT NULL,
              scope_key  TEXT NOT NULL,
              name       TEXT NOT NULL,
              value      TEXT NOT NULL,
              v          INTEGER NOT NULL,
              PRIMARY KEY (scope, scope_key, name))""",
            COMMANDS,
            INTERRUPTS);

    /**
     * The indexes beside the primary keys. None holds {@code updated_at}, which every append changes
     * (ADR 0011): a listing sorts the tenant's rows instead.
     */
    static final List<String> INDEXES = List.of(
            "CREATE UNIQUE INDEX sessions_by_sid ON sessions(sid)",
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)",
            "CREATE INDEX sessions_by_parent ON sessions(tenant, parent_id) WHERE parent_id IS NOT NULL",
            SESSIONS_BY_EXPIRY);

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
            SESSIONS_V3, EVENTS_V3, SNAPSHOTS_V3, COMMANDS,
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
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)",
            "CREATE INDEX sessions_by_parent ON sessions(tenant, parent_id) WHERE parent_id IS NOT NULL");

    /** Version 3 to 4: the {@code interrupts} table; nothing else changes. */
    static final List<String> UPGRADE_3_TO_4 = List.of(INTERRUPTS);

    /**
     * Version 4 to 5: events and snapshots move into their keys' b-trees ({@code WITHOUT ROWID}); an
     * event's time becomes epoch nanoseconds, converted by the {@code threadline_nanos} function that
     * {@link Schema} registers on the connection (the same parser the reads of version 4 used), and the
     * type column goes; each session gets its number ({@code sid}, its row id at the upgrade) and its
     * events are keyed by it. Payloads are copied as they are (they carry their own version). The sessions
     * lose their head column; each session's last event gets {@code appended} from its row's
     * {@code updated_at}, so heads and listing order read back as before.
     */
    static final List<String> UPGRADE_4_TO_5 = List.of(
            "ALTER TABLE snapshots RENAME TO snapshots_v4",
            "ALTER TABLE events RENAME TO events_v4",
            "ALTER TABLE sessions ADD COLUMN sid INTEGER NOT NULL DEFAULT 0",
            "UPDATE sessions SET sid = rowid",
            "CREATE UNIQUE INDEX sessions_by_sid ON sessions(sid)",
            EVENTS_V5, SNAPSHOTS,
            "INSERT INTO events (sid, seq, step, time, command_id, source, touches_transcript, payload, v)"
                    + " SELECT s.sid, e.seq, e.step, threadline_nanos(e.time), e.command_id, e.source, e.touches_transcript,"
                    + " e.payload, e.v FROM events_v4 e JOIN sessions s ON s.tenant = e.tenant AND s.id = e.session_id",
            "INSERT INTO snapshots (tenant, session_id, seq, payload, v) SELECT tenant, session_id, seq, payload, v FROM snapshots_v4",
            "DROP TABLE snapshots_v4",
            "DROP TABLE events_v4",
            // the head and the last update now come from the journal: each session's last event gets its update time
            "UPDATE events SET appended = (SELECT s.updated_at FROM sessions s WHERE s.sid = events.sid) - time"
                    + " WHERE seq = (SELECT max(e.seq) FROM events e WHERE e.sid = events.sid)",
            "ALTER TABLE sessions DROP COLUMN head_seq");

    /**
     * Version 5 to 6: event payloads may be NULL (sealed into a segment), and the segments table. SQLite
     * cannot drop a NOT NULL in place, so the events move to a new table of the same key; nothing is
     * sealed by the upgrade (the next snapshot of each session does it).
     */
    static final List<String> UPGRADE_5_TO_6 = List.of(
            "ALTER TABLE events RENAME TO events_v5",
            EVENTS,
            "INSERT INTO events (sid, seq, step, time, command_id, source, touches_transcript, payload, v, appended)"
                    + " SELECT sid, seq, step, time, command_id, source, touches_transcript, payload, v, appended FROM events_v5",
            "DROP TABLE events_v5",
            SEGMENTS);

    /**
     * Version 6 to 7: each session's expiry ({@code SessionInfo.expiresAt}) beside its info, as epoch
     * nanoseconds (NULL: never), and the index retention reads it through. Existing rows take it from
     * their stored info, converted by {@code threadline_nanos}; rows without one stay NULL.
     */
    static final List<String> UPGRADE_6_TO_7 = List.of(
            "ALTER TABLE sessions ADD COLUMN expires_at INTEGER",
            "UPDATE sessions SET expires_at = threadline_nanos(json_extract(info, '$.expiresAt'))"
                    + " WHERE json_extract(info, '$.expiresAt') IS NOT NULL",
            SESSIONS_BY_EXPIRY);
}
