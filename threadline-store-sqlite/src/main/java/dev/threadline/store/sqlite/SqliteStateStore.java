package dev.threadline.store.sqlite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.InvalidInputException;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.StorageException;
import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.internal.store.StoreChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.sqlite.SQLiteConfig;

/**
 * The embedded default {@link StateStore}: one SQLite file in WAL mode. An append is one
 * {@code BEGIN IMMEDIATE} transaction that checks the expected seq, inserts only the new events,
 * moves the head and applies shared-variable writes; nothing already written is rewritten, so the
 * cost of a step does not grow with the history. Several processes may open the same file: SQLite's
 * write lock plus the expected-seq check keep one writer per seq. See the module README for the schema.
 */
public final class SqliteStateStore implements StateStore {

    /** When SQLite syncs to disk: FULL at every commit, NORMAL only at checkpoints (WAL). */
    public enum Synchronous { FULL, NORMAL }

    /**
     * How to open a store.
     *
     * @param synchronous FULL (default): an acknowledged append survives a power loss; NORMAL: it survives a
     *                    process kill, and a power loss may drop the last commits (never corrupts the file)
     * @param busyTimeout how long a write waits for another process's write lock before failing
     * @param clock       the time of the sessions index ({@code updatedAt})
     * @param maxBatch    the most writes one commit may hold (group commit, ADR 0011); default 512; 1 commits
     *                    each write in its own transaction
     */
    public record Options(Synchronous synchronous, Duration busyTimeout, Clock clock, int maxBatch) {
        public Options {
            synchronous = synchronous == null ? Synchronous.FULL : synchronous;
            busyTimeout = busyTimeout == null ? Duration.ofSeconds(10) : busyTimeout;
            clock = clock == null ? Clock.systemUTC() : clock;
            maxBatch = maxBatch == 0 ? GroupCommit.MAX_BATCH : maxBatch;
            if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
                throw new InvalidInputException("busyTimeout", "must be between 0 and " + Integer.MAX_VALUE + " ms, was " + busyTimeout);
            }
            if (maxBatch < 1) {
                throw new InvalidInputException("maxBatch", "must be at least 1, was " + maxBatch);
            }
        }

        public Options(Synchronous synchronous, Duration busyTimeout, Clock clock) {
            this(synchronous, busyTimeout, clock, 0);
        }

        public static Options defaults() {
            return new Options(Synchronous.FULL, null, null, 0);
        }

        public Options withSynchronous(Synchronous s) {
            return new Options(s, busyTimeout, clock, maxBatch);
        }

        public Options withBusyTimeout(Duration d) {
            return new Options(synchronous, d, clock, maxBatch);
        }

        public Options withClock(Clock c) {
            return new Options(synchronous, busyTimeout, c, maxBatch);
        }

        /** At most {@code n} writes per commit; 1 turns group commit off (one transaction, one fsync, per write). */
        public Options withMaxBatch(int n) {
            return new Options(synchronous, busyTimeout, clock, n);
        }
    }

    private final Path file;
    private final Options options;
    private final Connections db;

    private SqliteStateStore(Path file, Options options, Connections db) {
        this.file = file;
        this.options = options;
        this.db = db;
    }

    /** Opens (creating if needed) the store in {@code file} with the default options. */
    public static SqliteStateStore open(Path file) {
        return open(file, Options.defaults());
    }

    /** Opens (creating the file, its directories and the schema if needed) the store in {@code file}. */
    public static SqliteStateStore open(Path file, Options options) {
        Objects.requireNonNull(file, "file");
        Path path = file.toAbsolutePath();
        Options opts = options == null ? Options.defaults() : options;
        try {
            Files.createDirectories(path.getParent());
        } catch (IOException e) {
            throw new StorageException("sqlite store " + path + ": cannot create its directory: " + e.getMessage(), e);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setSynchronous(opts.synchronous() == Synchronous.FULL
                ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout((int) opts.busyTimeout().toMillis());
        Connections db = null;
        try {
            db = new Connections(path, config, opts.maxBatch());
            db.onWriter(() -> "prepare the schema", c -> {
                Schema.prepare(c, path);
                return null;
            });
            return new SqliteStateStore(path, opts, db);
        } catch (SQLException e) {
            throw new StorageException("sqlite store " + path + ": cannot open: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (db != null) {
                db.close();
            }
            throw e;
        }
    }

    /** The database file. */
    public Path file() {
        return file;
    }

    @Override
    public void create(SessionInfo info, List<StoredEvent> firstEvents) {
        Objects.requireNonNull(info, "info");
        List<EventRows.Row> rows = EventRows.encode(firstEvents);
        String json = RecordCodec.encodeSession(info);
        db.write(() -> "create session '" + info.id() + "'", c -> {
            if (SessionRows.headOrNull(c, info.id()) != null) {
                throw new SessionExistsException(info.id());
            }
            if (info.parentId() != null) {
                StoreChecks.branchPoint(info, SessionRows.head(c, info.parentId()));
            }
            StoreChecks.batch(info.id(), info.parentSeq(), firstEvents);
            SessionRows.insert(c, info, json, info.parentSeq() + rows.size(), options.clock().instant());
            EventRows.insert(c, info.id(), rows);
            return null;
        });
    }

    @Override
    public long append(String sessionId, long expectedSeq, List<StoredEvent> events, List<ScopedWrite> writes) {
        List<EventRows.Row> rows = EventRows.encode(events);
        List<SharedRows.VariableChange> changes = SharedRows.encode(writes);
        return db.write(() -> "append to session '" + sessionId + "' after seq " + expectedSeq, c -> {
            long head = SessionRows.head(c, sessionId);
            if (head != expectedSeq) {
                throw new VersionConflictException(sessionId, expectedSeq, head);
            }
            StoreChecks.batch(sessionId, expectedSeq, events);
            EventRows.insert(c, sessionId, rows);
            long newHead = expectedSeq + rows.size();
            SessionRows.moveHead(c, sessionId, newHead, options.clock().instant());
            SharedRows.apply(c, changes);
            return newHead;
        });
    }

    @Override
    public long head(String sessionId) {
        return db.read(() -> "read the head of session '" + sessionId + "'", c -> SessionRows.head(c, sessionId));
    }

    @Override
    public List<StoredEvent> readOwn(String sessionId, long fromSeq, long toSeq) {
        return readEvents(sessionId, fromSeq, toSeq, false);
    }

    @Override
    public List<StoredEvent> readOwnTranscript(String sessionId, long fromSeq, long toSeq) {
        return readEvents(sessionId, fromSeq, toSeq, true);
    }

    private List<StoredEvent> readEvents(String sessionId, long fromSeq, long toSeq, boolean transcriptOnly) {
        return db.read(() -> "read session '" + sessionId + "' seq " + fromSeq + ".." + toSeq, c -> {
            List<StoredEvent> out = EventRows.select(c, sessionId, fromSeq, toSeq, transcriptOnly);
            if (out.isEmpty()) {
                SessionRows.head(c, sessionId); // an unknown session is an error, an empty range is not
            }
            return out;
        });
    }

    @Override
    public Optional<SessionInfo> session(String sessionId) {
        return db.read(() -> "read session '" + sessionId + "'", c -> Optional.ofNullable(SessionRows.info(c, sessionId)));
    }

    @Override
    public List<SessionSummary> list(SessionQuery query) {
        return db.read(() -> "list the sessions of tenant '" + query.tenant() + "'", c -> SessionRows.list(c, query));
    }

    @Override
    public List<String> branches(String sessionId) {
        return db.read(() -> "list the branches of session '" + sessionId + "'", c -> {
            SessionRows.head(c, sessionId);
            return SessionRows.branches(c, sessionId);
        });
    }

    @Override
    public void saveSnapshot(String sessionId, StateSnapshot snapshot) {
        String payload = RecordCodec.encodeSnapshot(snapshot);
        db.write(() -> "save a snapshot of session '" + sessionId + "' at seq " + snapshot.seq(), c -> {
            SessionRows.head(c, sessionId);
            SharedRows.saveSnapshot(c, sessionId, snapshot.seq(), payload);
            return null;
        });
    }

    @Override
    public Optional<StateSnapshot> latestSnapshot(String sessionId, long maxSeq) {
        return db.read(() -> "read a snapshot of session '" + sessionId + "'", c -> {
            SessionRows.head(c, sessionId);
            return SharedRows.latestSnapshot(c, sessionId, maxSeq);
        });
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope, String key) {
        return db.read(() -> "read the " + scope.wireName() + " variables of '" + key + "'",
                c -> SharedRows.variables(c, scope.wireName(), key));
    }

    @Override
    public void delete(String sessionId) {
        db.write(() -> "delete session '" + sessionId + "'", c -> {
            SessionRows.head(c, sessionId);
            List<String> children = SessionRows.branches(c, sessionId);
            if (!children.isEmpty()) {
                throw new InvalidInputException("session", "'" + sessionId + "' has branches " + children
                        + " that share its journal; delete them first");
            }
            EventRows.delete(c, sessionId);
            SharedRows.deleteSnapshots(c, sessionId);
            SessionRows.delete(c, sessionId);
            return null;
        });
    }

    @Override
    public String durability() {
        return options.synchronous() == Synchronous.FULL
                ? "sqlite WAL, synchronous=FULL: an acknowledged append survives a process kill and a power loss"
                : "sqlite WAL, synchronous=NORMAL: an acknowledged append survives a process kill; a power loss may"
                        + " drop the last commits but never corrupts the file";
    }

    @Override
    public void close() {
        db.close();
    }

    /**
     * Test hook: runs one PRAGMA on the writer connection, outside any transaction, and returns the
     * first column of its first row (null when it returns none).
     */
    String pragma(String pragma) {
        if (!pragma.regionMatches(true, 0, "PRAGMA ", 0, 7)) {
            throw new IllegalArgumentException("not a pragma: " + pragma);
        }
        return db.onWriter(() -> "run '" + pragma + "'", c -> {
            try (java.sql.Statement s = c.createStatement()) {
                if (!s.execute(pragma)) {
                    return null;
                }
                try (java.sql.ResultSet rs = s.getResultSet()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        });
    }
}
