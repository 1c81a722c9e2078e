package dev.threadline.store.postgres;

import dev.threadline.store.jdbc.SessionTable;
import dev.threadline.store.jdbc.CommandRows;
import dev.threadline.store.jdbc.SharedRows;
import dev.threadline.core.internal.store.EpochNanos;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.JournalTail;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A {@link StateStore} on PostgreSQL, shared by any number of Threadline processes, each with its own
 * store on one database. An append is one transaction: a conditional UPDATE of the session's row
 * ({@code WHERE head_seq = expectedSeq AND lease_epoch = epoch}) that moves the head, the insert of
 * the new events only, the shared-variable writes and the command record when the step carries one;
 * a serialization failure or deadlock runs it again, whole, and the head check makes a second
 * application impossible. Followers are told after the commit, outside the append's transaction, by
 * the store's notifier ({@code pg_notify} on a connection of its own, the sessions that moved during
 * one send coalesced into the next): a notification is a hint to look again, never the truth, and
 * waiters re-read the head at least every second without one, so a hint lost (this process dying
 * between its commit and its notify, the notifier's connection down) only delays followers by that
 * much. Leases are single conditional statements judged by the store's clock. Only plain SQL is used (no advisory locks), so the store also suits
 * PostgreSQL-compatible distributed databases (see the module's README for what it assumes).
 *
 * <p>A server that is down or unreachable makes a call fail after at most the connect timeout with a
 * one-line {@link StorageException} starting "store unavailable:"; the pool opens new connections when
 * the server is back, so the store recovers without a restart. Thread-safe.
 */
public final class PostgresStateStore implements StateStore {
    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /**
     * How to open a store. Immutable.
     *
     * @param clock          the time of the sessions index ({@code updatedAt}) and of lease expiry
     * @param poolSize       the most connections this store holds (default 10)
     * @param connectTimeout how long opening a connection may take: a call that cannot get one from a server that
     *                       is down or unreachable fails "store unavailable" after at most this (default 5 s)
     * @param queryTimeout   how long one statement may wait for the server's answer (default 30 s; a server
     *                       that stops answering fails the call after this)
     * @param schema         the schema the tables live in, created if missing; null for the connection's default
     *                       ({@code public}). Lower-case letters, digits and _.
     * @param notifications  whether committed appends notify followers ({@code pg_notify}, sent after the commit
     *                       by a notifier thread on a connection of its own) and {@code awaitHead} listens; off,
     *                       or where the database has no LISTEN/NOTIFY, there is no notifier and followers poll
     * @param serializable   whether transactions run at SERIALIZABLE instead of READ COMMITTED (both are
     *                       correct; serializable shows the retry path, and is what distributed databases run)
     * @param maxBatch       the most ordinary steps of different sessions committed together in one transaction
     *                       (group commit, ADR 0029; default 64, 0 for the default); 1 commits each step alone
     * @param poolWait       how long a call waits for one of the pool's connections while all of them are busy
     *                       with other calls (the server is there; default 30 s): then it fails with a
     *                       {@link StorageException} saying the pool stayed busy, not "store unavailable"
     */
    public record Options(Clock clock, int poolSize, Duration connectTimeout, Duration queryTimeout, String schema,
                          boolean notifications, boolean serializable, int maxBatch, Duration poolWait) {
        /** @throws InvalidInputException naming the option that is out of range */
        public Options {
            clock = clock == null ? Clock.systemUTC() : clock;
            poolSize = poolSize == 0 ? 10 : poolSize;
            connectTimeout = connectTimeout == null ? Duration.ofSeconds(5) : connectTimeout;
            queryTimeout = queryTimeout == null ? Duration.ofSeconds(30) : queryTimeout;
            maxBatch = maxBatch == 0 ? 64 : maxBatch;
            poolWait = poolWait == null ? Duration.ofSeconds(30) : poolWait;
            if (poolWait.toMillis() < 250 || poolWait.toSeconds() > 3600) {
                throw new InvalidInputException("poolWait", "must be between 250 ms and 1 h, was " + poolWait);
            }
            if (maxBatch < 1 || maxBatch > StepStatement.MAX_EVENTS) {
                throw new InvalidInputException("maxBatch", "must be between 1 and " + StepStatement.MAX_EVENTS + ", was " + maxBatch);
            }
            if (poolSize < 1 || poolSize > 1000) {
                throw new InvalidInputException("poolSize", "must be between 1 and 1000, was " + poolSize);
            }
            if (connectTimeout.toMillis() < 250 || connectTimeout.toSeconds() > 3600) {
                throw new InvalidInputException("connectTimeout", "must be between 250 ms and 1 h, was " + connectTimeout);
            }
            if (queryTimeout.toSeconds() < 1 || queryTimeout.toSeconds() > 86_400) {
                throw new InvalidInputException("queryTimeout", "must be between 1 s and 24 h, was " + queryTimeout);
            }
            if (schema != null && !SCHEMA.matcher(schema).matches()) {
                throw new InvalidInputException("schema", "'" + schema + "' is not a schema name: use 1-63 lower-case"
                        + " letters, digits and _, starting with a letter or _");
            }
        }

        /**
         * System clock, 10 connections, 5 s to connect, 30 s per statement, 30 s to wait for a busy pool,
         * default schema, notifications on, READ COMMITTED.
         */
        public static Options defaults() {
            return new Options(null, 0, null, null, null, true, false, 0, null);
        }

        /** The same options on another clock (lease expiry and {@code updatedAt}). */
        public Options withClock(Clock c) {
            return new Options(c, poolSize, connectTimeout, queryTimeout, schema, notifications, serializable, maxBatch, poolWait);
        }

        /** The same options with at most {@code n} connections (1..1000). */
        public Options withPoolSize(int n) {
            return new Options(clock, n, connectTimeout, queryTimeout, schema, notifications, serializable, maxBatch, poolWait);
        }

        /** The same options with another connect timeout (250 ms..1 h): how long opening a connection may take. */
        public Options withConnectTimeout(Duration d) {
            return new Options(clock, poolSize, d, queryTimeout, schema, notifications, serializable, maxBatch, poolWait);
        }

        /** The same options with another statement timeout (1 s..24 h). */
        public Options withQueryTimeout(Duration d) {
            return new Options(clock, poolSize, connectTimeout, d, schema, notifications, serializable, maxBatch, poolWait);
        }

        /** The same options on another schema (created if missing); null for the connection's default. */
        public Options withSchema(String s) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, s, notifications, serializable, maxBatch, poolWait);
        }

        /** The same options with notifications on or off (off: {@code awaitHead} polls). */
        public Options withNotifications(boolean on) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, on, serializable, maxBatch, poolWait);
        }

        /** The same options committing at most {@code n} ordinary steps together (1: each alone). */
        public Options withMaxBatch(int n) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, notifications, serializable, n, poolWait);
        }

        /**
         * The same options with another pool wait (250 ms..1 h): how long a call waits for a connection while
         * every one of the pool's is busy.
         */
        public Options withPoolWait(Duration d) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, notifications, serializable, maxBatch, d);
        }

        /** The same options at SERIALIZABLE ({@code true}) or READ COMMITTED. */
        public Options withSerializable(boolean on) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, notifications, on, maxBatch, poolWait);
        }
    }

    private final Options options;
    private final Db db;
    private final HeadListener heads;
    /** Null when notifications are off or unsupported. */
    private final HeadNotifier notifier;
    /** Group commit of ordinary steps (ADR 0029); null when {@code maxBatch} is 1. */
    private final StepBatcher batcher;
    private final String durability;

    private PostgresStateStore(Options options, Db db, boolean notify, String durability, long recheckMs,
                               boolean packedHints) {
        this.options = options;
        this.db = db;
        this.durability = durability;
        this.heads = new HeadListener(db, options.schema(), recheckMs);
        this.notifier = notify ? new HeadNotifier(db, heads, packedHints) : null;
        // half the pool writes batches, so reads and the other writes always find a connection
        this.batcher = options.maxBatch() == 1 ? null : new StepBatcher(db, Math.max(1, options.poolSize() / 2), options.maxBatch(),
                notifier == null ? keys -> { } : notifier::hintAll);
    }

    /**
     * Opens a store on the database at {@code url}, creating or upgrading its schema (ADR 0017).
     *
     * @param url     {@code postgresql://[user[:password]@]host[:port]/database[?params]} or a pgjdbc
     *                {@code jdbc:postgresql://...} URL
     * @param options how to connect and behave; null for {@link Options#defaults()}
     * @throws InvalidInputException when the URL is not a PostgreSQL URL
     * @throws StorageException      "store unavailable: ..." when the server cannot be reached within the
     *                               connect timeout; or when the schema is of a newer Threadline
     */
    public static PostgresStateStore open(String url, Options options) {
        return open(url, options, HeadListener.RECHECK_MS, false);
    }

    /**
     * {@link #open(String, Options)} with another interval at which waiters re-read the head without a
     * notification, and hints packed several to a payload instead of one per notification (tests, measurements:
     * see {@link HeadNotifier}).
     */
    static PostgresStateStore open(String url, Options options, long recheckMs, boolean packedHints) {
        PgUrl where = PgUrl.parse(url);
        Options opts = options == null ? Options.defaults() : options;
        Db db = new Db(where, opts);
        try {
            Prepared p = db.read(() -> "prepare the schema", c -> {
                Prepared current = probe(c, opts.notifications());
                if (current != null) {
                    return current;
                }
                if (opts.schema() != null) {
                    createSchema(c, opts.schema());
                    c.setSchema(opts.schema());
                }
                Migrations.upgrade(c, where.shown());
                return new Prepared(opts.notifications() && notifySupported(c), describeDurability(c));
            });
            return new PostgresStateStore(opts, db, p.notifications(), p.durability(), recheckMs, packedHints);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** What opening found: whether followers are notified, and the durability line. */
    private record Prepared(boolean notifications, String durability) {}

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

    /**
     * Whether {@code url} is one this store opens ({@code postgresql://}, {@code postgres://} or
     * {@code jdbc:postgresql:}), for a resolver that picks a backend by URL. It does not check the rest.
     */
    public static boolean handles(String url) {
        return url != null && (url.startsWith("postgresql://") || url.startsWith("postgres://")
                || url.startsWith("jdbc:postgresql:"));
    }

    /** Opens a store with the default options; see {@link #open(String, Options)}. */
    public static PostgresStateStore open(String url) {
        return open(url, null);
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

    @Override
    public void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command) {
        Objects.requireNonNull(info, "info");
        SessionKey key = SessionKey.of(info);
        List<EventRows.Row> rows = EventRows.encode(firstEvents);
        db.write(() -> "create session '" + info.id() + "'", c -> {
            if (SessionRows.exists(c, key)) {
                throw new SessionExistsException(info.id());
            }
            if (info.parentId() != null) {
                SessionTable.Position parent = SessionRows.positionOrNull(c, key.sibling(info.parentId()), " FOR SHARE");
                if (parent == null) {
                    throw new SessionNotFoundException(info.parentId());
                }
                StoreChecks.branchPoint(info, parent.head());
            }
            StoreChecks.batch(info.id(), info.parentSeq(), firstEvents);
            StoreChecks.createCommand(info, command);
            if (command != null && !command.session().equals(key)) {
                recordCommand(c, command);
            }
            if (!SessionRows.insert(c, info, info.parentSeq() + rows.size(), options.clock().instant())) {
                throw new SessionExistsException(info.id());
            }
            EventRows.insert(c, key, rows);
            if (command != null && command.session().equals(key)) {
                recordCommand(c, command);
            }
            return null;
        });
    }

    /** Inserts the record, or refuses with the one already there. */
    private static void recordCommand(Connection c, CommandRecord command) throws SQLException {
        if (!CommandRows.insert(c, command)) {
            throw new DuplicateCommandException(CommandRows.find(c, command.session(), command.commandId()));
        }
    }

    @Override
    public long append(AppendRequest request) {
        Objects.requireNonNull(request, "request");
        SessionKey key = request.key();
        Supplier<String> what = () -> "append to session '" + key.id() + "' after seq " + request.expectedSeq(); // for errors only
        try {
            StoreChecks.batch(key.id(), request.expectedSeq(), request.events());
            StoreChecks.command(request);
        } catch (InvalidInputException bad) {
            // refused as the reference store refuses it: a stale epoch or a moved head is said first
            db.read(what, c -> refusal(c, request));
            throw bad;
        }
        List<EventRows.Row> rows = EventRows.encode(request.events());
        List<SharedRows.VariableChange> changes = SharedRows.encode(request.writes());
        long newHead = request.expectedSeq() + rows.size();
        boolean oneStatement = rows.size() <= StepStatement.MAX_EVENTS;
        Db.Work<Long> work = c -> {
            long now = EpochNanos.of(options.clock().instant());
            boolean moved = oneStatement
                    ? StepStatement.run(c, request, rows, newHead, now)
                    : moveHead(c, request, newHead, now);
            if (!moved) {
                refusal(c, request);
                // the UPDATE and the reading above saw different versions of the row: run it all again
                throw new SQLException("session '" + key.id() + "' changed between the check and its reading", "40001");
            }
            if (!oneStatement) {
                EventRows.insert(c, key, rows);
            }
            if (request.command() != null) {
                recordCommand(c, request.command()); // only steps that carry a command id write this table
            }
            SharedRows.apply(c, changes);
            return newHead;
        };
        // an ordinary step is one statement, atomic on its own: no transaction around it, one round trip
        boolean alone = oneStatement && request.command() == null && changes.isEmpty();
        if (alone && batcher != null) {
            // with other sessions' steps in one commit when they come together (ADR 0029), the batch's
            // followers told by the batcher, once per commit; a refusal is diagnosed by the step alone,
            // which runs its statement again and reads the row
            long now = EpochNanos.of(options.clock().instant());
            if (batcher.run(key, what, StepStatement.step(request, rows, newHead, now))) {
                return newHead;
            }
        }
        long head = alone ? db.writeOne(what, work) : db.write(what, work);
        if (notifier != null) {
            notifier.hint(key); // committed: tell followers, after the commit and off this thread
        }
        return head;
    }

    /** Throws what refuses {@code request} on the row as it is now: a stale epoch, or a head that moved; returns if neither. */
    private static Void refusal(Connection c, AppendRequest request) throws SQLException {
        SessionKey key = request.key();
        SessionTable.Position at = SessionRows.position(c, key, "");
        if (at.epoch() != request.epoch()) {
            throw new LeaseLostException(key.id(), request.epoch(), at.epoch());
        }
        if (at.head() != request.expectedSeq()) {
            throw new VersionConflictException(key.id(), request.expectedSeq(), at.head());
        }
        return null;
    }

    /**
     * The fencing check and the head move alone, one conditional UPDATE of the session's row, for a
     * step too large for {@link StepStatement} (followers are told after the commit, as for any step).
     */
    static boolean moveHead(Connection c, AppendRequest request, long newHead, long now) throws SQLException {
        String sql = "UPDATE heads SET head_seq = ?, updated_at = ?, recent = ?"
                + " WHERE tenant = ? AND id = ? AND head_seq = ? AND lease_epoch = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, newHead);
            ps.setLong(2, now);
            ps.setLong(3, Migrations.recent(now));
            ps.setString(4, request.key().tenant());
            ps.setString(5, request.key().id());
            ps.setLong(6, request.expectedSeq());
            ps.setLong(7, request.epoch());
            return ps.executeUpdate() == 1;
        }
    }

    @Override
    public long head(SessionKey key) {
        return db.read(() -> "read the head of session '" + key.id() + "'", c -> SessionRows.head(c, key));
    }

    /**
     * Waits as {@link JournalTail#awaitHead} says: woken by the notification of any process's commit to
     * this session, and reading the head again at least every second; polling (2 ms growing to 100 ms)
     * while notifications are off or the listener is not connected.
     */
    @Override
    public long awaitHead(SessionKey key, long afterSeq, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long head = head(key);
        if (head > afterSeq || timeout.isZero() || timeout.isNegative()) {
            return head;
        }
        if (notifier == null) { // notifications off or unsupported: poll
            return StateStore.super.awaitHead(key, afterSeq, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        HeadListener.Waiters w = heads.register(key);
        try {
            long poll = 2_000_000L;
            while (true) {
                long seen = w.seen.get();
                head = head(key);
                long left = deadline - System.nanoTime();
                if (head > afterSeq || left <= 0) {
                    return head;
                }
                w.await(seen, Math.min(left, heads.pauseNanos(poll)));
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for session '" + key.id()
                            + "' to move past seq " + afterSeq);
                }
                poll = Math.min(poll * 2, HeadListener.POLL_MS * 1_000_000L);
            }
        } finally {
            heads.unregister(key);
        }
    }

    @Override
    public List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq) {
        return readEvents(key, fromSeq, toSeq, false);
    }

    @Override
    public List<StoredEvent> readOwnTranscript(SessionKey key, long fromSeq, long toSeq) {
        return readEvents(key, fromSeq, toSeq, true);
    }

    /**
     * The rows' payloads parsed as one array (ADR 0031); segments that an earlier version sealed (ADR 0028)
     * and that lie wholly inside the range are parsed whole, one parse each.
     */
    @Override
    public List<Event> readOwnTranscriptEvents(SessionKey key, long fromSeq, long toSeq) {
        return db.read(() -> "read the transcript of session '" + key.id() + "' seq " + fromSeq + ".." + toSeq, c -> {
            List<Event> out = SegmentRows.transcriptEvents(c, key, fromSeq, toSeq);
            if (out.isEmpty()) {
                SessionRows.head(c, key); // an unknown session is an error, an empty range is not
            }
            return out;
        });
    }

    private List<StoredEvent> readEvents(SessionKey key, long fromSeq, long toSeq, boolean transcriptOnly) {
        return db.read(() -> "read session '" + key.id() + "' seq " + fromSeq + ".." + toSeq, c -> {
            List<StoredEvent> out = EventRows.select(c, key, fromSeq, toSeq, transcriptOnly);
            if (out.isEmpty()) {
                SessionRows.head(c, key); // an unknown session is an error, an empty range is not
            }
            return out;
        });
    }

    @Override
    public Optional<SessionInfo> session(SessionKey key) {
        return db.read(() -> "read session '" + key.id() + "'", c -> Optional.ofNullable(SessionTable.info(c, key)));
    }

    @Override
    public Page<SessionSummary> list(SessionQuery query) {
        Objects.requireNonNull(query, "query");
        return db.read(() -> "list the sessions of tenant '" + query.tenant() + "'", c -> SessionPages.list(c, query));
    }

    @Override
    public List<String> branches(SessionKey key) {
        return db.read(() -> "list the branches of session '" + key.id() + "'", c -> {
            SessionRows.head(c, key);
            return SessionTable.branches(c, key);
        });
    }

    @Override
    public void saveSnapshot(SessionKey key, StateSnapshot snapshot) {
        String payload = RecordCodec.encodeSnapshot(snapshot);
        db.write(() -> "save a snapshot of session '" + key.id() + "' at seq " + snapshot.seq(), c -> {
            if (!SharedRows.saveSnapshot(c, key, snapshot.seq(), payload)) {
                throw new SessionNotFoundException(key.id());
            }
            return null; // no sealing on PostgreSQL (ADR 0031): the rows keep their payloads
        });
    }

    @Override
    public Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq) {
        return db.read(() -> "read a snapshot of session '" + key.id() + "'", c -> {
            SessionRows.head(c, key);
            return SharedRows.latestSnapshot(c, key, maxSeq);
        });
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope, String key) {
        return db.read(() -> "read the " + scope.wireName() + " variables of '" + key + "'",
                c -> SharedRows.variables(c, scope.wireName(), key));
    }

    @Override
    public LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder) {
        StoreChecks.lease(owner, ttl);
        return db.write(() -> "acquire the lease of session '" + key.id() + "' for " + owner,
                c -> LeaseRows.acquire(c, key, owner, ttl, deadHolder, options.clock().instant()));
    }

    @Override
    public Lease renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        StoreChecks.lease(lease.owner(), ttl);
        return db.write(() -> "renew the lease of session '" + lease.key().id() + "' for " + lease.owner(),
                c -> LeaseRows.renew(c, lease, ttl, options.clock().instant()));
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        db.write(() -> "release the lease of session '" + lease.key().id() + "'", c -> {
            LeaseRows.release(c, lease);
            return null;
        });
    }

    @Override
    public Optional<Lease> lease(SessionKey key) {
        return db.read(() -> "read the lease of session '" + key.id() + "'", c -> Optional.ofNullable(LeaseRows.current(c, key)));
    }

    /** One upsert into {@code interrupts} (see {@link InterruptRows}). */
    @Override
    public boolean requestInterrupt(SessionKey key, long epoch, String reason) {
        Objects.requireNonNull(reason, "reason");
        return db.write(() -> "request an interrupt of session '" + key.id() + "' at epoch " + epoch, c -> {
            InterruptRows.put(c, key, epoch, reason);
            return true;
        });
    }

    /** One conditional delete that returns the reason: nothing to take costs one indexed read. */
    @Override
    public Optional<String> takeInterruptRequest(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        return Optional.ofNullable(db.write(() -> "take the interrupt request of session '" + lease.key().id() + "'",
                c -> InterruptRows.take(c, lease)));
    }

    @Override
    public Optional<CommandRecord> command(SessionKey key, String commandId) {
        return db.read(() -> "read command '" + commandId + "' of session '" + key.id() + "'", c -> {
            SessionRows.head(c, key);
            return Optional.ofNullable(CommandRows.find(c, key, commandId));
        });
    }

    @Override
    public void delete(SessionKey key) {
        db.write(() -> "delete session '" + key.id() + "'", c -> {
            SessionRows.position(c, key, " FOR UPDATE");
            List<String> children = SessionTable.branches(c, key);
            if (!children.isEmpty()) {
                throw new InvalidInputException("session", "'" + key.id() + "' has branches " + children
                        + " that share its journal; delete them first");
            }
            SessionRows.delete(c, key);
            return null;
        });
    }

    @Override
    public String durability() {
        return durability;
    }

    /** Where this store is, without the password. */
    public String url() {
        return db.url().shown();
    }

    /** How many write transactions ran again after a serialization failure or a deadlock since the store opened. */
    public long retries() {
        return db.retries();
    }

    /** The store's connections, for tests and harnesses. */
    Db db() {
        return db;
    }

    /** The notifier (null when notifications are off) and the listener, for tests. */
    HeadNotifier notifier() {
        return notifier;
    }

    HeadListener listener() {
        return heads;
    }

    /** Batches of steps committed together and the steps they held, since the store opened (ADR 0029). */
    long[] batcherCounts() {
        return batcher == null ? new long[] {0, 0} : batcher.counts();
    }

    /** Stops the notifier (after its send in flight) and the listener, then closes the pool. */
    @Override
    public void close() {
        if (notifier != null) {
            notifier.close();
        }
        heads.close();
        db.close();
    }
}
