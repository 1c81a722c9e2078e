package dev.threadline.store.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A {@link StateStore} on Redis, standalone or Cluster, shared by any number of Threadline processes.
 *
 * <p>Every key of one session carries the hash tag {@code {tenant/id}}, so it lives in one hash slot
 * and each operation on a session is one Lua script, atomic on the server: an append checks the lease
 * epoch, the expected seq and the command id, then pushes only the new events (RPUSH onto the
 * session's list: written once, so bytes per step stay flat), moves the head and records the command.
 * Leases are scripts too, judged by the time this store's clock passes in (so the clocks of all
 * processes sharing a server must agree to well within a lease's ttl). What spans sessions cannot be
 * in that script on Cluster and is written after it: the tenant's index (by update time, for paging),
 * shared user/app variables (recorded on the session with the step and rolled forward by the
 * session's next append if the writer died first), and a branch's adoption by its parent, which is the
 * commit point of a fork (until then the branch is invisible). See the module's README for what a
 * crash between the two can leave and how reads tolerate it.
 *
 * <p>Tail reads ({@link #awaitHead}) poll the head with a backoff from 2 to 100 ms; a blocking read
 * would hold one connection per waiter, while this store multiplexes one connection for all threads.
 * <p>Opened with a key provider ({@link Options#withKeys}, or {@code ?keys=} in its URL) it keeps every payload
 * sealed (encryption at rest, ADR 0049): events, snapshots, history bases, shared variables, command results,
 * interrupt reasons and pending shared writes, as raw bytes under the tenant's data key, kept wrapped in the
 * store's {@link dev.threadline.core.store.DataKeys} hash; see {@code docs/security.md}.
 *
 * <p>Thread-safe.
 */
public final class RedisStateStore implements StateStore {

    /**
     * How to open a store. Immutable.
     *
     * @param prefix         the first part of every key (default {@code tl}); deployments sharing a server use different ones
     * @param clock          the time of update times and lease expiry (default the system clock)
     * @param connectTimeout how long connecting may take before failing (default 5 s)
     * @param commandTimeout how long one command may take before failing (default 10 s)
     * @param claimWindow    how old an unfinished branch create must be before another create of that id replaces it
     *                       (default 60 s)
     * @param keys           the key provider of encryption at rest (ADR 0049), or null (the default) to keep payloads plain
     */
    public record Options(String prefix, Clock clock, Duration connectTimeout, Duration commandTimeout, Duration claimWindow,
                          KeyProvider keys) {
        /** @throws InvalidInputException when the prefix holds braces or whitespace, or a duration is not positive */
        public Options {
            prefix = prefix == null ? "tl" : prefix;
            Require.argument(!prefix.isBlank() && prefix.chars().noneMatch(c -> c == '{' || c == '}' || Character.isWhitespace(c)),
                    "prefix", "must be non-empty, without braces or spaces, was '" + prefix + "'");
            clock = clock == null ? Clock.systemUTC() : clock;
            connectTimeout = positive(connectTimeout, Duration.ofSeconds(5), "connectTimeout");
            commandTimeout = positive(commandTimeout, Duration.ofSeconds(10), "commandTimeout");
            claimWindow = positive(claimWindow, Duration.ofSeconds(60), "claimWindow");
        }

        /** Options without encryption at rest (as before {@code keys} existed). */
        public Options(String prefix, Clock clock, Duration connectTimeout, Duration commandTimeout, Duration claimWindow) {
            this(prefix, clock, connectTimeout, commandTimeout, claimWindow, null);
        }

        private static Duration positive(Duration d, Duration otherwise, String field) {
            if (d == null) {
                return otherwise;
            }
            Require.argument(!d.isNegative() && !d.isZero(), field, "must be positive, was " + d);
            return d;
        }

        /** The defaults: prefix {@code tl}, the system clock, 5 s to connect, 10 s per command. */
        public static Options defaults() {
            return new Options(null, null, null, null, null, null);
        }

        /** The same options with another key prefix. */
        public Options withPrefix(String p) {
            return new Options(p, clock, connectTimeout, commandTimeout, claimWindow, keys);
        }

        /** The same options with another clock (the TCK passes its own, to move time past a lease). */
        public Options withClock(Clock c) {
            return new Options(prefix, c, connectTimeout, commandTimeout, claimWindow, keys);
        }

        /** The same options with another connect timeout. */
        public Options withConnectTimeout(Duration d) {
            return new Options(prefix, clock, d, commandTimeout, claimWindow, keys);
        }

        /** The same options with another command timeout (how soon a call on an unreachable cluster node fails). */
        public Options withCommandTimeout(Duration d) {
            return new Options(prefix, clock, connectTimeout, d, claimWindow, keys);
        }

        /**
         * The same options with encryption at rest (ADR 0049): every payload the store writes sealed under its
         * tenant's data key, wrapped by {@code k}'s key-encryption keys (null: plain, the default).
         */
        public Options withKeys(KeyProvider k) {
            return new Options(prefix, clock, connectTimeout, commandTimeout, claimWindow, k);
        }
    }

    private final Connection redis;
    private final Keys keys;
    private final Options options;
    private final SessionScripts scripts;
    private final Branches branches;
    private final Leasing leasing;
    private final Writes writes;
    private final HistoryBases pruning;
    private final Snapshots snapshots;
    private final String durability;
    private final Sealer sealer;
    private final Resealer resealer;
    private volatile boolean closed;

    private RedisStateStore(Connection redis, Options options) {
        this.redis = redis;
        this.options = options;
        this.keys = new Keys(options.prefix());
        this.sealer = options.keys() == null ? Sealer.PLAIN : Sealer.by(new PayloadSealer(options.keys(), this));
        this.scripts = new SessionScripts(redis, keys);
        this.branches = new Branches(redis, keys, scripts, options.commandTimeout().toMillis(), sealer);
        this.leasing = new Leasing(scripts, options.clock(), sealer);
        this.writes = new Writes(redis, keys, scripts, branches, options, sealer);
        this.pruning = new HistoryBases(scripts, branches, sealer);
        this.snapshots = new Snapshots(scripts, sealer, options.clock());
        this.resealer = new Resealer(redis, keys, sealer, options);
        this.durability = Durability.describe(redis);
    }

    /**
     * Connects to one Redis server ({@code redis://[user:password@]host:port[/db]}, {@code rediss://...}
     * for TLS) or, given {@code redis-cluster://host:port,host:port,...}, to a cluster; a query
     * {@code ?replicas=N&replicaTimeout=2s} makes acknowledged writes wait for N replicas (ADR 0047);
     * {@code ?keys=keyring:FILE} or {@code ?keys=env} turns encryption at rest on (ADR 0049) as
     * {@link Options#withKeys} does (the URL's provider replaces the options' one).
     * @throws InvalidInputException when the URL, {@code replicas}, {@code replicaTimeout} or {@code keys} is malformed
     * @throws StorageException      in one line when the server cannot be reached
     */
    public static RedisStateStore open(String redisUrl, Options options) {
        Options opts = options == null ? Options.defaults() : options;
        KeysOption.Parsed parsed = KeysOption.parse(redisUrl);
        if (parsed.keys() != null) {
            opts = opts.withKeys(parsed.keys());
        }
        Connection c = Connection.open(parsed.url(), opts.connectTimeout(), opts.commandTimeout());
        try {
            return new RedisStateStore(c, opts);
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Connects to a Redis Cluster through any of its nodes ({@code host:port} each); the rest of the
     * topology is discovered from them.
     *
     * @throws InvalidInputException when no node is given or one is malformed
     * @throws StorageException      in one line when no node can be reached
     */
    public static RedisStateStore openCluster(List<String> nodes, Options options) {
        if (nodes == null || nodes.isEmpty()) {
            throw new InvalidInputException("nodes", "a cluster needs at least one host:port");
        }
        return open("redis-cluster://" + String.join(",", nodes), options);
    }

    /**
     * Whether {@code url} names a Redis store ({@code redis://}, {@code rediss://} or
     * {@code redis-cluster://}), so a resolver of store URLs knows to hand it to {@link #open}.
     * It says nothing of whether the rest of the URL is valid.
     */
    public static boolean accepts(String url) {
        return url != null && (url.startsWith("redis://") || url.startsWith("rediss://") || url.startsWith("redis-cluster://"));
    }

    /** Whether this store talks to a Redis Cluster. */
    public boolean isCluster() {
        return redis.cluster;
    }

    @Override
    public void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command) {
        Objects.requireNonNull(info, "info");
        writes.create(info, firstEvents, command, this::call);
    }

    /** In one script: the session, its base and its first events after it ({@code create.lua}). */
    @Override
    public void createFromBase(SessionInfo info, HistoryBase base, List<StoredEvent> firstEvents, CommandRecord command) {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(base, "base");
        writes.create(info, base, firstEvents, command, this::call);
    }

    @Override
    public long append(AppendRequest request) {
        return writes.append(request, this::call);
    }

    @Override
    public long head(SessionKey key) {
        return Long.parseLong(describe(key, "read the head of session '" + key.id() + "'").text(1));
    }

    @Override
    public List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq) {
        return read(key, fromSeq, toSeq, false);
    }

    @Override
    public List<StoredEvent> readOwnTranscript(SessionKey key, long fromSeq, long toSeq) {
        return read(key, fromSeq, toSeq, true);
    }

    private List<StoredEvent> read(SessionKey key, long fromSeq, long toSeq, boolean transcriptOnly) {
        return call("read session '" + key.id() + "' seq " + fromSeq + ".." + toSeq, () -> EventEntry.decodeAll(key,
                scripts.existing(key, Scripts.READ, Long.toString(fromSeq), Long.toString(toSeq)).list(0), transcriptOnly, sealer));
    }

    @Override
    public Optional<SessionInfo> session(SessionKey key) {
        return call("read session '" + key.id() + "'", () -> {
            Reply r = scripts.run(key, Scripts.DESCRIBE);
            return r.is("NF") ? Optional.empty() : Optional.of(RecordCodec.decodeSession(key.id(), r.text(0)));
        });
    }

    @Override
    public Page<SessionSummary> list(SessionQuery query) {
        Objects.requireNonNull(query, "query");
        return call("list the sessions of tenant '" + query.tenant() + "'",
                () -> Listing.list(redis, keys, query, options.commandTimeout().toMillis()));
    }

    /**
     * Removes from a tenant's index the entries of sessions that no longer exist: those whose TTL
     * ({@link SessionInfo#expiresAt()}) expired, and those of a delete whose writer died before its
     * index update. Listing already skips such entries; pruning only bounds the index's size, so run it
     * now and then (for example with retention). Safe to run from any number of processes at once.
     *
     * @return how many entries were removed
     * @throws StorageException when the server is unavailable
     */
    public int pruneIndex(String tenant) {
        SessionInfo.checkId(tenant, "tenant");
        return call("prune the index of tenant '" + tenant + "'",
                () -> Listing.prune(redis, keys, tenant, options.commandTimeout().toMillis()));
    }

    /**
     * Read from the deployment's expiry index (to the millisecond, never early); a session whose keys
     * Redis already removed at its expiry is not listed, and its index entries are removed.
     */
    @Override
    public List<SessionKey> expired(Instant now, int limit) {
        StoreChecks.expired(now, limit);
        return call("list the sessions expired at " + now,
                () -> Expiry.expired(redis, keys, now, limit, options.commandTimeout().toMillis()));
    }

    @Override
    public List<String> branches(SessionKey key) {
        return call("list the branches of session '" + key.id() + "'", () -> branches.of(key));
    }

    @Override
    public void saveSnapshot(SessionKey key, StateSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        call("save a snapshot of session '" + key.id() + "' at seq " + snapshot.seq(), () -> {
            snapshots.save(key, snapshot);
            return null;
        });
    }

    @Override
    public Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq) {
        return call("read a snapshot of session '" + key.id() + "'", () -> snapshots.latest(key, maxSeq));
    }

    /** Redis prunes, one script per prune ({@link HistoryBases}, ADR 0045). */
    @Override
    public boolean prunesHistory() {
        return true;
    }

    @Override
    public void prune(SessionKey key, HistoryBase base) {
        Objects.requireNonNull(base, "base");
        call("prune session '" + key.id() + "' through seq " + base.seq(), () -> pruning.prune(key, base));
    }

    @Override
    public Optional<HistoryBase> historyBase(SessionKey key) {
        return call("read the history base of session '" + key.id() + "'", () -> pruning.base(key));
    }

    /** A hash per tenant ({@link Keys#dataKeys}); an add is one HSETNX, replicated like a step when acks are on. */
    @Override
    public boolean keepsDataKeys() {
        return true;
    }

    @Override
    public List<dev.threadline.core.store.WrappedDataKey> dataKeys(String tenant) {
        Require.nonBlank(tenant, "tenant");
        return call("read the data keys of tenant '" + tenant + "'",
                () -> Records.decodeDataKeys(tenant, redis.sync.hgetall(keys.dataKeys(tenant))));
    }

    @Override
    public boolean addDataKey(dev.threadline.core.store.WrappedDataKey key) {
        Objects.requireNonNull(key, "key");
        String hash = keys.dataKeys(key.tenant());
        String value = Records.encodeDataKey(key, System.currentTimeMillis());
        return call("add data key " + key.number() + " of tenant '" + key.tenant() + "'",
                () -> redis.acked(hash, c -> c.hsetnx(hash, Integer.toString(key.number()), value), added -> added));
    }

    @Override
    public boolean seals() {
        return sealer.on();
    }

    @Override
    public int rotateDataKey(String tenant) {
        Require.nonBlank(tenant, "tenant");
        return sealer.on() ? sealer.rotate(tenant) : StateStore.super.rotateDataKey(tenant);
    }

    @Override
    public int rewrapDataKeys(String tenant) {
        Require.nonBlank(tenant, "tenant");
        return sealer.on() ? sealer.rewrap(tenant) : StateStore.super.rewrapDataKeys(tenant);
    }

    /**
     * Found by SCAN (on every master of a cluster), then {@code batch} compare-and-sets per script on each session's
     * slot and each variables hash; see {@link Resealer}.
     */
    @Override
    public Resealed reseal(String tenant, int batch, java.util.function.Consumer<Resealed> progress) {
        if (!sealer.on()) {
            return StateStore.super.reseal(tenant, batch, progress);
        }
        Require.nonBlank(tenant, "tenant");
        if (batch < 1) {
            throw new InvalidInputException("batch", "a re-seal batch is 1 payload or more, not " + batch);
        }
        return call("re-seal the payloads of tenant '" + tenant + "'", () -> resealer.reseal(tenant, batch, progress));
    }

    /** The re-seal, for tests that place a concurrent writer between a batch's reads and its write. */
    Resealer resealer() {
        return resealer;
    }

    /** The stored JSON of the key compared and replaced in one script: a key wrapped again meanwhile stays as it is. */
    @Override
    public boolean rewrapDataKey(dev.threadline.core.store.WrappedDataKey current, dev.threadline.core.store.WrappedDataKey rewrapped) {
        dev.threadline.core.store.DataKeys.sameKey(current, rewrapped);
        String hash = keys.dataKeys(current.tenant());
        String field = Integer.toString(current.number());
        return call("wrap data key " + current.number() + " of tenant '" + current.tenant() + "' again", () -> {
            String stored = redis.sync.hget(hash, field);
            if (stored == null || !Records.decodeDataKeys(current.tenant(), Map.of(field, stored)).get(0).equals(current)) {
                return false;
            }
            String value = Records.encodeDataKey(rewrapped, System.currentTimeMillis());
            return redis.acked(hash, c -> c.<Long>eval("if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then"
                    + " redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) return 1 end return 0",
                    io.lettuce.core.ScriptOutputType.INTEGER, new String[] {hash}, field, stored, value), n -> n == 1L) == 1L;
        });
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope, String key) {
        Objects.requireNonNull(scope, "scope");
        Require.nonBlank(key, "key");
        return call("read the " + scope.wireName() + " variables of '" + key + "'",
                () -> Records.decodeVariables(scope, key, redis.sync.hgetall(keys.variables(scope, key)), sealer));
    }

    @Override
    public LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder) {
        StoreChecks.lease(owner, ttl);
        return call("acquire the lease of session '" + key.id() + "' for " + owner, () -> leasing.acquire(key, owner, ttl, deadHolder));
    }

    @Override
    public Lease renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        StoreChecks.lease(lease.owner(), ttl);
        return call("renew the lease of session '" + lease.key().id() + "' for " + lease.owner(), () -> leasing.renew(lease, ttl));
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        call("release the lease of session '" + lease.key().id() + "'", () -> {
            leasing.release(lease);
            return null;
        });
    }

    /** Fields {@code iepoch} and {@code ireason} of the session's meta hash, set by one script. */
    @Override
    public boolean requestInterrupt(SessionKey key, long epoch, String reason) {
        Objects.requireNonNull(reason, "reason");
        return call("request an interrupt of session '" + key.id() + "' at epoch " + epoch, () -> {
            leasing.requestInterrupt(key, epoch, reason);
            return true;
        });
    }

    /** One script: checks the epoch against the session's and removes the request it returns. */
    @Override
    public Optional<String> takeInterruptRequest(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        return call("take the interrupt request of session '" + lease.key().id() + "'", () -> leasing.takeInterruptRequest(lease));
    }

    @Override
    public Optional<Lease> lease(SessionKey key) {
        return Leasing.of(key, describe(key, "read the lease of session '" + key.id() + "'"));
    }

    @Override
    public Optional<CommandRecord> command(SessionKey key, String commandId) {
        Require.nonBlank(commandId, "command id");
        return call("read command '" + commandId + "' of session '" + key.id() + "'", () -> {
            String stored = scripts.existing(key, Scripts.COMMAND, commandId).text(0);
            return stored == null ? Optional.<CommandRecord>empty() : Optional.of(Records.decodeCommand(key, commandId, stored, sealer));
        });
    }

    @Override
    public void delete(SessionKey key) {
        call("delete session '" + key.id() + "'", () -> {
            branches.delete(key);
            return null;
        });
    }

    @Override
    public String durability() {
        return durability;
    }

    @Override
    public String scrub() { // rewrites the AOF and the RDB snapshot, which still hold deleted keys
        return call("scrub the store's files", () -> RedisScrub.run(redis));
    }

    /** Closes the connection. Idempotent; later calls fail with a StorageException saying the store is closed. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        redis.close();
    }

    /** A session's row through {@code describe.lua}: info, head, updated, epoch, owner, lsec, lnano, parent, token. */
    private Reply describe(SessionKey key, String what) {
        return call(what, () -> scripts.existing(key, Scripts.DESCRIBE));
    }

    private <T> T call(String what, Supplier<T> body) {
        if (closed) {
            throw new StorageException("redis store " + redis.url() + " is closed; cannot " + what);
        }
        try {
            return body.get();
        } catch (RuntimeException e) {
            throw Failures.wrap(redis.url(), what, e);
        }
    }
}
