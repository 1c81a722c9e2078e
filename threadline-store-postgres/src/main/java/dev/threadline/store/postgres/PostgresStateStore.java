package dev.threadline.store.postgres;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.JournalTail;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.store.jdbc.Sealing;
import dev.threadline.store.jdbc.JdbcStateStore;
import dev.threadline.store.jdbc.SessionTable;
import dev.threadline.store.jdbc.SharedRows;
import dev.threadline.store.jdbc.SqlWork;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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
 * PostgreSQL-compatible distributed databases (see the module's README for what it assumes). Opened with a key
 * provider ({@link Options#withKeys}, or {@code ?keys=} in its URL) it seals every payload at rest under its
 * tenant's data key, into the {@code bytea} column beside each payload column (ADR 0049, docs/security.md).
 *
 * <p>A server that is down or unreachable makes a call fail after at most the connect timeout with a
 * one-line {@link StorageException} starting "store unavailable:"; the pool opens new connections when
 * the server is back, so the store recovers without a restart. Thread-safe.
 */
public final class PostgresStateStore extends JdbcStateStore {
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
     * @param keys           null (default): payloads are stored in clear; a key provider: encryption at rest (ADR 0049,
     *                       {@code docs/security.md}), every payload sealed under its tenant's data key, wrapped by
     *                       this provider's key-encryption keys (the store URL's {@code ?keys=} says the same)
     */
    public record Options(Clock clock, int poolSize, Duration connectTimeout, Duration queryTimeout, String schema,
                          boolean notifications, boolean serializable, int maxBatch, Duration poolWait, KeyProvider keys) {
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
            return new Options(null, 0, null, null, null, true, false, 0, null, null);
        }

        /** The same options on another clock (lease expiry and {@code updatedAt}). */
        public Options withClock(Clock c) {
            return new Options(c, poolSize, connectTimeout, queryTimeout, schema, notifications, serializable, maxBatch, poolWait, keys);
        }

        /** The same options with at most {@code n} connections (1..1000). */
        public Options withPoolSize(int n) {
            return new Options(clock, n, connectTimeout, queryTimeout, schema, notifications, serializable, maxBatch, poolWait, keys);
        }

        /** The same options with another connect timeout (250 ms..1 h): how long opening a connection may take. */
        public Options withConnectTimeout(Duration d) {
            return new Options(clock, poolSize, d, queryTimeout, schema, notifications, serializable, maxBatch, poolWait, keys);
        }

        /** The same options with another statement timeout (1 s..24 h). */
        public Options withQueryTimeout(Duration d) {
            return new Options(clock, poolSize, connectTimeout, d, schema, notifications, serializable, maxBatch, poolWait, keys);
        }

        /** The same options on another schema (created if missing); null for the connection's default. */
        public Options withSchema(String s) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, s, notifications, serializable, maxBatch, poolWait, keys);
        }

        /** The same options with notifications on or off (off: {@code awaitHead} polls). */
        public Options withNotifications(boolean on) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, on, serializable, maxBatch, poolWait, keys);
        }

        /** The same options committing at most {@code n} ordinary steps together (1: each alone). */
        public Options withMaxBatch(int n) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, notifications, serializable, n, poolWait, keys);
        }

        /**
         * The same options with another pool wait (250 ms..1 h): how long a call waits for a connection while
         * every one of the pool's is busy.
         */
        public Options withPoolWait(Duration d) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, notifications, serializable, maxBatch, d, keys);
        }

        /**
         * The same options with encryption at rest under {@code k}'s key-encryption keys (null: off). Payloads already
         * in the database stay readable as they are; new ones are sealed; the full-text index is no longer written.
         */
        public Options withKeys(KeyProvider k) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, notifications, serializable, maxBatch,
                    poolWait, k);
        }

        /** The same options at SERIALIZABLE ({@code true}) or READ COMMITTED. */
        public Options withSerializable(boolean on) {
            return new Options(clock, poolSize, connectTimeout, queryTimeout, schema, notifications, on, maxBatch, poolWait, keys);
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
                               boolean packedHints, Sealing sealing) {
        super(db, PostgresDialect.of(sealing), PgText.INSTANCE, options.clock(), sealing);
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
     *                {@code jdbc:postgresql://...} URL; behind pgbouncer add {@code direct=host:port} (ADR 0048)
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
        Options given = options == null ? Options.defaults() : options;
        PgUrl parsed = PgUrl.parse(url);
        if (parsed.keys() != null && given.keys() != null) {
            throw new InvalidInputException("keys", "are given both in the store url and in the options; give them once");
        }
        Options opts = parsed.keys() != null ? given.withKeys(parsed.keys()) : given;
        Db db = new Db(parsed, opts);
        try {
            Opening.Prepared p = Opening.prepare(db, opts);
            Sealing sealing = opts.keys() == null ? Sealing.TEXT : Sealing.sealedBy(opts.keys(), new DataKeyConnections(db, opts.schema()),
                    opts.clock()).inSplitColumns();
            return new PostgresStateStore(opts, db, p.notifications(), p.durability(), recheckMs, packedHints, sealing);
        } catch (RuntimeException e) {
            db.close();
            throw e;
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

    @Override
    public void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command) {
        Objects.requireNonNull(info, "info");
        sealing().ready(info.tenant()); // a missing or wrong key is refused here, before anything is written
        if (command != null) {
            sealing().ready(command.session().tenant());
        }
        db.write(() -> "create session '" + info.id() + "'", JournalWrites.create(info, firstEvents, command, options.clock(),
                sealing()));
    }

    /** In one transaction: the session, its base and its first events after it ({@link JournalWrites#create}). */
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
        SessionKey key = request.key();
        Supplier<String> what = () -> "append to session '" + key.id() + "' after seq " + request.expectedSeq(); // for errors only
        try {
            StoreChecks.batch(key.id(), request.expectedSeq(), request.events());
            StoreChecks.command(request);
        } catch (InvalidInputException bad) {
            // refused as the reference store refuses it: a stale epoch or a moved head is said first
            db.read(what, c -> SessionRows.refusal(c, request));
            throw bad;
        }
        JournalWrites.ready(request, sealing()); // a missing or wrong key is refused here, before anything is written
        List<EventRows.Row> rows = EventRows.encode(key, request.events(), sealing()); // sealed here, on the caller's thread
        List<SharedRows.VariableChange> changes = SharedRows.encode(request.writes());
        long newHead = request.expectedSeq() + rows.size();
        SqlWork<Long> work = JournalWrites.append(request, rows, changes, newHead, options.clock(), sealing());
        // an ordinary step is one statement, atomic on its own: no transaction around it, one round trip
        boolean alone = rows.size() <= StepStatement.MAX_EVENTS && request.command() == null && changes.isEmpty();
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
            return super.awaitHead(key, afterSeq, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        return heads.await(key, afterSeq, deadline, this::head);
    }

    @Override
    public void saveSnapshot(SessionKey key, StateSnapshot snapshot) {
        String payload = RecordCodec.encodeSnapshot(snapshot);
        sealing().ready(key.tenant());
        db.write(() -> "save a snapshot of session '" + key.id() + "' at seq " + snapshot.seq(), c -> {
            if (!SharedRows.saveSnapshot(c, key, snapshot.seq(), payload, sealing())) {
                throw new SessionNotFoundException(key.id());
            }
            return null; // no sealing on PostgreSQL (ADR 0031): the rows keep their payloads
        });
    }

    /** One upsert into {@code interrupts} (see {@link InterruptRows}). */
    @Override
    public boolean requestInterrupt(SessionKey key, long epoch, String reason) {
        Objects.requireNonNull(reason, "reason");
        sealing().ready(key.tenant());
        return db.write(() -> "request an interrupt of session '" + key.id() + "' at epoch " + epoch, c -> {
            InterruptRows.put(c, key, epoch, reason, sealing());
            return true;
        });
    }

    /** One conditional delete that returns the reason: nothing to take costs one indexed read. */
    @Override
    public Optional<String> takeInterruptRequest(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        return Optional.ofNullable(db.write(() -> "take the interrupt request of session '" + lease.key().id() + "'",
                c -> InterruptRows.take(c, lease, sealing())));
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

    /** Seals the tenant's payloads again under its newest data key, batch by batch ({@link PgResealer}). */
    @Override
    public Resealed reseal(String tenant, int batch, java.util.function.Consumer<Resealed> progress) {
        if (!sealing().on()) {
            return super.reseal(tenant, batch, progress);
        }
        dev.threadline.core.error.Require.nonBlank(tenant, "tenant");
        return PgResealer.reseal(db, sealing(), tenant, batch, Objects.requireNonNull(progress, "progress"));
    }

    /** Rewrites the tables and retires the WAL segments that held deleted rows ({@link PgScrub}). */
    @Override
    public String scrub() {
        return PgScrub.run(db, options.schema());
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
