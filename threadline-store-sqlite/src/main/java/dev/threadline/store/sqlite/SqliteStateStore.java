package dev.threadline.store.sqlite;

import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.JournalTail;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.jdbc.CommandRows;
import dev.threadline.store.jdbc.JdbcStateStore;
import dev.threadline.store.jdbc.SessionTable;
import dev.threadline.store.jdbc.HistoryBaseRows;
import dev.threadline.store.jdbc.Sealing;
import dev.threadline.store.jdbc.SharedRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.sqlite.SQLiteConfig;

/**
 * The embedded default {@link StateStore}: one SQLite file in WAL mode. An append is one piece of
 * work in a {@code BEGIN IMMEDIATE} transaction that checks the lease epoch and the expected seq on
 * the session's row, inserts only the new events, moves the head, applies shared-variable writes and
 * records the command id when the step carries one; nothing already written is rewritten, so the
 * cost of a step does not grow with the history. Lease operations are writes through the same queue.
 * Several processes may open the same file: SQLite's write lock plus the epoch and expected-seq checks
 * keep one writer per seq. Opened with a key provider ({@link Options#withKeys}, or {@code ?keys=} in its URL) it
 * seals every payload at rest under its tenant's data key (ADR 0049, docs/security.md). Thread-safe. See
 * docs/storage.md for the schema.
 */
public final class SqliteStateStore extends JdbcStateStore {

    /** When SQLite syncs to disk: FULL at every commit, NORMAL only at checkpoints (WAL). */
    public enum Synchronous {
        /** An fsync at every commit: an acknowledged append survives a power loss (the default). */
        FULL,
        /** An fsync at WAL checkpoints only: an append survives a process kill; a power loss may drop the last commits. */
        NORMAL
    }

    /**
     * How to open a store.
     *
     * @param synchronous FULL (default): an acknowledged append survives a power loss; NORMAL: it survives a
     *                    process kill, and a power loss may drop the last commits (never corrupts the file)
     * @param busyTimeout how long a write waits for another process's write lock before failing
     * @param clock       the time of the sessions index ({@code updatedAt}) and of lease expiry
     * @param maxBatch    the most writes one commit may hold (group commit, ADR 0011); default 512; 1 commits
     *                    each write in its own transaction
     * @param keys        null (default): payloads are stored in clear; a key provider: encryption at rest (ADR 0049,
     *                    {@code docs/security.md}), every payload sealed under its tenant's data key, wrapped by
     *                    this provider's key-encryption keys
     */
    public record Options(Synchronous synchronous, Duration busyTimeout, Clock clock, int maxBatch, KeyProvider keys) {
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

        /** Options as the canonical constructor makes them, with payloads in clear (no key provider). */
        public Options(Synchronous synchronous, Duration busyTimeout, Clock clock, int maxBatch) {
            this(synchronous, busyTimeout, clock, maxBatch, null);
        }

        /**
         * Options with {@code synchronous} (null: FULL), {@code busyTimeout} (null: 10 s) and {@code clock} (null: the
         * system clock), at the default batch size.
         */
        public Options(Synchronous synchronous, Duration busyTimeout, Clock clock) {
            this(synchronous, busyTimeout, clock, 0, null);
        }

        /** The defaults: {@code synchronous=FULL}, a 10 s busy timeout, the system clock, batches of 512, no encryption. */
        public static Options defaults() {
            return new Options(Synchronous.FULL, null, null, 0, null);
        }

        /** These options with SQLite's {@code synchronous} mode {@code s}. */
        public Options withSynchronous(Synchronous s) {
            return new Options(s, busyTimeout, clock, maxBatch, keys);
        }

        /** These options with busy timeout {@code d}: how long a write waits for another process's write lock. */
        public Options withBusyTimeout(Duration d) {
            return new Options(synchronous, d, clock, maxBatch, keys);
        }

        /** These options with clock {@code c}: session times and lease expiries. */
        public Options withClock(Clock c) {
            return new Options(synchronous, busyTimeout, c, maxBatch, keys);
        }

        /** At most {@code n} writes per commit; 1 turns group commit off (one transaction, one fsync, per write). */
        public Options withMaxBatch(int n) {
            return new Options(synchronous, busyTimeout, clock, n, keys);
        }

        /**
         * These options with encryption at rest under {@code k}'s key-encryption keys (null: off). Payloads already
         * in the file stay readable as they are; new ones are sealed; the text index is no longer written.
         */
        public Options withKeys(KeyProvider k) {
            return new Options(synchronous, busyTimeout, clock, maxBatch, k);
        }
    }

    private final Path file;
    private final Options options;
    private final Connections db;
    private final HeadSignal signal = new HeadSignal();

    private SqliteStateStore(Path file, Options options, Connections db, Sealing sealing) {
        super(db, SqliteDialect.of(sealing), TextIndex.INSTANCE, options.clock(), sealing);
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
        dev.threadline.core.log.Logs.quietWithoutBinding(); // before sqlite-jdbc first logs through SLF4J
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
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "ON"); // deleted rows are zeroed in the file (erasure)
        config.setBusyTimeout((int) opts.busyTimeout().toMillis());
        Connections db = null;
        try {
            db = new Connections(path, config, opts.maxBatch());
            db.onWriter(() -> "prepare the schema", c -> {
                Schema.prepare(c, path);
                return null;
            });
            Sealing sealing = opts.keys() == null ? Sealing.PLAIN : Sealing.sealedBy(opts.keys(), db, opts.clock());
            return new SqliteStateStore(path, opts, db, sealing);
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
    public void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command) {
        Objects.requireNonNull(info, "info");
        sealing().ready(info.tenant()); // a missing or wrong key is refused here, before anything is written
        if (command != null) {
            sealing().ready(command.session().tenant());
        }
        db.write(() -> "create session '" + info.id() + "'", JournalWrites.create(info, firstEvents, command, options.clock(), sealing()));
    }

    /** In one write: the session, its base and its first events after it ({@link JournalWrites#create}). */
    @Override
    public void createFromBase(SessionInfo info, dev.threadline.core.store.HistoryBase base, List<StoredEvent> firstEvents,
                               CommandRecord command) {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(base, "base");
        sealing().ready(info.tenant()); // a missing or wrong key is refused here, before anything is written
        db.write(() -> "create session '" + info.id() + "' from its base through seq " + base.seq(),
                JournalWrites.create(info, base, firstEvents, command, options.clock(), sealing()));
    }

    @Override
    public long append(AppendRequest request) {
        Objects.requireNonNull(request, "request");
        readyFor(request);
        long head = db.write(() -> "append to session '" + request.key().id() + "' after seq " + request.expectedSeq(),
                JournalWrites.append(request, options.clock(), sealing()));
        signal.committed();
        return head;
    }

    /** Every tenant the append seals for has its key (refused here, before anything is written; ADR 0049). */
    private void readyFor(AppendRequest request) {
        if (!sealing().on()) {
            return;
        }
        sealing().ready(request.key().tenant());
        if (request.writes() != null) {
            for (ScopedWrite w : request.writes()) {
                sealing().ready(SharedRows.tenantOf(w.key()));
            }
        }
    }

    /** Waits as {@link JournalTail#awaitHead} says; woken at once by this store's own commits, polling for others'. */
    @Override
    public long awaitHead(SessionKey key, long afterSeq, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long seen = signal.seen();
            long head = head(key);
            long left = deadline - System.nanoTime();
            if (head > afterSeq || left <= 0) {
                return head;
            }
            signal.await(seen, left);
        }
    }

    @Override
    public void saveSnapshot(SessionKey key, StateSnapshot snapshot) {
        String payload = RecordCodec.encodeSnapshot(snapshot);
        sealing().ready(key.tenant()); // before the write: the segment it seals is sealed under the cached key
        db.write(() -> "save a snapshot of session '" + key.id() + "' at seq " + snapshot.seq(), c -> {
            long head = SessionRows.head(c, key);
            SharedRows.saveSnapshot(c, key, snapshot.seq(), payload, sealing());
            SegmentRows.seal(c, key, Math.min(head, snapshot.seq()), sealing()); // ADR 0028
            return null;
        });
    }

    /** Recorded in the {@code interrupts} table through the group-commit writer (see {@link InterruptRows}). */
    @Override
    public boolean requestInterrupt(SessionKey key, long epoch, String reason) {
        Objects.requireNonNull(reason, "reason");
        sealing().ready(key.tenant());
        return db.write(() -> "request an interrupt of session '" + key.id() + "' at epoch " + epoch, c -> {
            SessionRows.head(c, key);
            InterruptRows.put(c, key, epoch, reason, sealing());
            return true;
        });
    }

    /** Reads first, on a reader connection, and writes (takes) only when a request for this epoch waits. */
    @Override
    public Optional<String> takeInterruptRequest(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        String what = "take the interrupt request of session '" + lease.key().id() + "'";
        if (db.read(() -> what, c -> InterruptRows.pending(c, lease, sealing())) == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(db.write(() -> what, c -> InterruptRows.take(c, lease, sealing())));
    }

    @Override
    public void delete(SessionKey key) {
        db.write(() -> "delete session '" + key.id() + "'", c -> {
            SessionRows.head(c, key);
            List<String> children = SessionTable.branches(c, key);
            if (!children.isEmpty()) {
                throw new InvalidInputException("session", "'" + key.id() + "' has branches " + children
                        + " that share its journal; delete them first");
            }
            EventRows.delete(c, key);
            dev.threadline.store.jdbc.TextRows.delete(c, key);
            SegmentRows.delete(c, key);
            SharedRows.deleteSnapshots(c, key);
            HistoryBaseRows.delete(c, key);
            CommandRows.delete(c, key);
            InterruptRows.delete(c, key);
            SessionRows.delete(c, key);
            return null;
        });
        signal.committed(); // a waiter on it learns that it is gone
    }

    @Override
    public String durability() {
        return options.synchronous() == Synchronous.FULL
                ? "sqlite WAL, synchronous=FULL: an acknowledged append survives a process kill and a power loss"
                : "sqlite WAL, synchronous=NORMAL: an acknowledged append survives a process kill; a power loss may"
                        + " drop the last commits but never corrupts the file";
    }

    /**
     * Seals the tenant's payloads again under its newest data key, table by table, {@code batch} rows per write
     * ({@link Resealer}); plain rows from before the store had keys are sealed too.
     */
    @Override
    public Resealed reseal(String tenant, int batch, java.util.function.Consumer<Resealed> progress) {
        if (!sealing().on()) {
            return super.reseal(tenant, batch, progress);
        }
        dev.threadline.core.error.Require.nonBlank(tenant, "tenant");
        Objects.requireNonNull(progress, "progress");
        return Resealer.reseal(db, sealing(), tenant, batch, progress);
    }

    /**
     * Deleted content is zeroed as it is deleted ({@code secure_delete=ON} on every connection); this
     * checkpoints the write-ahead log into the file and truncates it, so the older page images it still
     * held are gone too. Another process reading at that moment keeps the log from being truncated: the
     * answer says so, and a later scrub finishes the job.
     */
    @Override
    public String scrub() {
        return db.onWriter(() -> "checkpoint and truncate the write-ahead log", c -> {
            try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                boolean busy = rs.next() && rs.getInt(1) != 0;
                return busy
                        ? "sqlite: deleted rows zeroed (secure_delete); the write-ahead log was NOT truncated, another connection"
                                + " was reading: scrub again later (StateStore.scrub())"
                        : "sqlite: deleted rows zeroed (secure_delete); write-ahead log checkpointed and truncated";
            }
        });
    }

    @Override
    public void close() {
        db.close();
        signal.committed(); // waiters wake and find the store closed
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
