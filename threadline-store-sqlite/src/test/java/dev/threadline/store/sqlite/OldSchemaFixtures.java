package dev.threadline.store.sqlite;

import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import java.nio.file.Path;
import java.util.List;

/**
 * Files in the table layouts of earlier versions, written with their own DDL (copied here from the
 * releases that created them, never derived from today's code), for the upgrade tests. The row payloads
 * are today's records: they carry their own version, apart from the table layout's.
 */
final class OldSchemaFixtures {
    private OldSchemaFixtures() {}

    /** The tables of versions 1 and 2 (they differ only in two indexes). */
    private static final List<String> TABLES_V1_V2 = List.of("""
            CREATE TABLE sessions (
              id          TEXT PRIMARY KEY,
              tenant      TEXT NOT NULL,
              user_id     TEXT NOT NULL,
              parent_id   TEXT REFERENCES sessions(id),
              parent_seq  INTEGER NOT NULL,
              info        TEXT NOT NULL,
              head_seq    INTEGER NOT NULL,
              created_at  INTEGER NOT NULL,
              updated_at  INTEGER NOT NULL,
              v           INTEGER NOT NULL)""",
            "CREATE INDEX sessions_by_parent ON sessions(parent_id) WHERE parent_id IS NOT NULL",
            """
            CREATE TABLE events (
              session_id          TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
              seq                 INTEGER NOT NULL,
              step                INTEGER NOT NULL,
              time                TEXT NOT NULL,
              command_id          TEXT NOT NULL,
              source              TEXT NOT NULL,
              type                TEXT NOT NULL,
              touches_transcript  INTEGER NOT NULL,
              payload             TEXT NOT NULL,
              v                   INTEGER NOT NULL,
              PRIMARY KEY (session_id, seq))""",
            """
            CREATE TABLE snapshots (
              session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
              seq         INTEGER NOT NULL,
              payload     TEXT NOT NULL,
              v           INTEGER NOT NULL,
              PRIMARY KEY (session_id, seq))""",
            """
            CREATE TABLE variables (
              scope      TEXT NOT NULL,
              scope_key  TEXT NOT NULL,
              name       TEXT NOT NULL,
              value      TEXT NOT NULL,
              v          INTEGER NOT NULL,
              PRIMARY KEY (scope, scope_key, name))""");

    private static final List<String> INDEXES_V1 = List.of(
            "CREATE INDEX sessions_by_tenant ON sessions(tenant, updated_at DESC, id)",
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, updated_at DESC, id)");

    private static final List<String> INDEXES_V2 = List.of(
            "CREATE INDEX sessions_by_tenant ON sessions(tenant, id)",
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)");

    /** An empty file of layout {@code version} (1 or 2), open for the caller to fill. */
    static RawDb create(Path file, int version) throws Exception {
        RawDb raw = new RawDb(file);
        for (String ddl : TABLES_V1_V2) {
            raw.exec(ddl);
        }
        for (String ddl : version == 1 ? INDEXES_V1 : INDEXES_V2) {
            raw.exec(ddl);
        }
        raw.exec("PRAGMA user_version = " + version);
        return raw;
    }

    /** A sessions row as versions 1 and 2 wrote it. */
    static void session(RawDb raw, SessionInfo info, long head, long updatedAtNanos) throws Exception {
        raw.exec("INSERT INTO sessions (id, tenant, user_id, parent_id, parent_seq, info, head_seq, created_at, updated_at, v)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", info.id(), info.tenant(), info.userId(), info.parentId(),
                info.parentSeq(), RecordCodec.encodeSession(info), head, EpochNanos.of(info.createdAt()), updatedAtNanos,
                RecordCodec.VERSION);
    }

    /** Event rows as versions 1 and 2 wrote them. */
    static void events(RawDb raw, List<StoredEvent> events) throws Exception {
        for (StoredEvent e : events) {
            raw.exec("INSERT INTO events (session_id, seq, step, time, command_id, source, type, touches_transcript, payload, v)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", e.sessionId(), e.seq(), e.step(), e.time().toString(),
                    e.commandId(), e.source().wireName(), e.event().type(), e.event().touchesTranscript() ? 1 : 0,
                    RecordCodec.encodeEvent(e.event()), RecordCodec.VERSION);
        }
    }

    static void snapshot(RawDb raw, String sessionId, StateSnapshot snapshot) throws Exception {
        raw.exec("INSERT INTO snapshots (session_id, seq, payload, v) VALUES (?, ?, ?, ?)", sessionId, snapshot.seq(),
                RecordCodec.encodeSnapshot(snapshot), RecordCodec.VERSION);
    }

    static void variable(RawDb raw, String scope, String key, String name, String json) throws Exception {
        raw.exec("INSERT INTO variables (scope, scope_key, name, value, v) VALUES (?, ?, ?, ?, ?)", scope, key, name, json,
                RecordCodec.VERSION);
    }

    /** The tables and indexes of versions 4 (copied from SchemaDdl of that release: events and snapshots with rowids, time as text). */
    private static final List<String> DDL_V4 = List.of("""
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
            """
            CREATE TABLE interrupts (
              tenant      TEXT NOT NULL,
              session_id  TEXT NOT NULL,
              epoch       INTEGER NOT NULL,
              reason      TEXT NOT NULL,
              PRIMARY KEY (tenant, session_id),
              FOREIGN KEY (tenant, session_id) REFERENCES sessions(tenant, id) ON DELETE CASCADE) WITHOUT ROWID""",
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)",
            "CREATE INDEX sessions_by_parent ON sessions(tenant, parent_id) WHERE parent_id IS NOT NULL",
            "PRAGMA user_version = 4");

    /** An empty file of layout version 4, open for the caller to fill. */
    static RawDb createV4(Path file) throws Exception {
        RawDb raw = new RawDb(file);
        for (String ddl : DDL_V4) {
            raw.exec(ddl);
        }
        return raw;
    }

    /** A sessions row as versions 3 and 4 wrote it (lease free). */
    static void sessionV4(RawDb raw, SessionInfo info, long head, long updatedAtNanos) throws Exception {
        raw.exec("INSERT INTO sessions (tenant, id, user_id, parent_id, parent_seq, info, head_seq, created_at, updated_at, v)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", info.tenant(), info.id(), info.userId(), info.parentId(),
                info.parentSeq(), RecordCodec.encodeSession(info), head, EpochNanos.of(info.createdAt()), updatedAtNanos,
                RecordCodec.VERSION);
    }

    /** Event rows as versions 3 and 4 wrote them: the time as {@code Instant.toString()} text, the type beside the payload. */
    static void eventsV4(RawDb raw, String tenant, List<StoredEvent> events) throws Exception {
        for (StoredEvent e : events) {
            raw.exec("INSERT INTO events (tenant, session_id, seq, step, time, command_id, source, type, touches_transcript,"
                    + " payload, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", tenant, e.sessionId(), e.seq(), e.step(),
                    e.time().toString(), e.commandId(), e.source().wireName(), e.event().type(),
                    e.event().touchesTranscript() ? 1 : 0, RecordCodec.encodeEvent(e.event()), RecordCodec.VERSION);
        }
    }

    static void snapshotV4(RawDb raw, String tenant, String sessionId, StateSnapshot snapshot) throws Exception {
        raw.exec("INSERT INTO snapshots (tenant, session_id, seq, payload, v) VALUES (?, ?, ?, ?, ?)", tenant, sessionId,
                snapshot.seq(), RecordCodec.encodeSnapshot(snapshot), RecordCodec.VERSION);
    }

    /** The events table of version 5 (copied from SchemaDdl of that release): every payload NOT NULL, no segments. */
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
     * Turns a file written by this code into layout version 5, which differs from 6 only in its events
     * table and the segments table (nothing may be sealed yet): events back into the version 5 table.
     */
    static void downgradeToV5(Path file) throws Exception {
        downgradeToV6(file);
        try (RawDb raw = new RawDb(file)) {
            if (raw.queryLong("SELECT count(*) FROM segments") != 0) {
                throw new IllegalStateException("a version 5 file has no segments; write it without snapshots");
            }
            raw.exec("DROP TABLE segments");
            raw.exec("ALTER TABLE events RENAME TO events_v6");
            raw.exec(EVENTS_V5);
            raw.exec("INSERT INTO events SELECT sid, seq, step, time, command_id, source, touches_transcript, payload, v,"
                    + " appended FROM events_v6");
            raw.exec("DROP TABLE events_v6");
            raw.exec("PRAGMA user_version = 5");
        }
    }

    /**
     * Turns a file written by this code into layout version 6, which differs from 7 only in the sessions'
     * {@code expires_at} column and its index (the expiry stays in each session's info, as it always was).
     */
    static void downgradeToV6(Path file) throws Exception {
        downgradeToV7(file);
        try (RawDb raw = new RawDb(file)) {
            raw.exec("DROP INDEX sessions_by_expiry");
            raw.exec("ALTER TABLE sessions DROP COLUMN expires_at");
            raw.exec("PRAGMA user_version = 6");
        }
    }

    /** Turns a file written by this code into layout version 9, which differs from 10 only in the {@code data_keys} table. */
    static void downgradeToV9(Path file) throws Exception {
        try (RawDb raw = new RawDb(file)) {
            if (raw.queryLong("SELECT count(*) FROM data_keys") != 0) {
                throw new IllegalStateException("a version 9 file has no data keys; write it without encryption");
            }
            raw.exec("DROP TABLE data_keys");
            raw.exec("PRAGMA user_version = 9");
        }
    }

    /** Turns a file written by this code into layout version 8, which differs from 9 only in the {@code history_bases} table. */
    static void downgradeToV8(Path file) throws Exception {
        downgradeToV9(file);
        try (RawDb raw = new RawDb(file)) {
            if (raw.queryLong("SELECT count(*) FROM history_bases") != 0) {
                throw new IllegalStateException("a version 8 file has no pruned history; write it without pruning");
            }
            raw.exec("DROP TABLE history_bases");
            raw.exec("PRAGMA user_version = 8");
        }
    }

    /** Turns a file written by this code into layout version 7, which differs from 8 only in the full-text index's tables. */
    static void downgradeToV7(Path file) throws Exception {
        downgradeToV8(file);
        try (RawDb raw = new RawDb(file)) {
            raw.exec("DROP TRIGGER journal_text_in");
            raw.exec("DROP TRIGGER journal_text_out");
            raw.exec("DROP TABLE journal_fts");
            raw.exec("DROP TABLE journal_text");
            raw.exec("PRAGMA user_version = 7");
        }
    }
}
