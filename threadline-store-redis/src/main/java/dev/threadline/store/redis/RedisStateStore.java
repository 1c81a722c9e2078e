package dev.threadline.store.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.DuplicateCommandException;
import dev.threadline.core.InvalidInputException;
import dev.threadline.core.LeaseLostException;
import dev.threadline.core.Require;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.StorageException;
import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import io.lettuce.core.ZAddArgs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * Thread-safe.
 */
public final class RedisStateStore implements StateStore {
    private static final Logger LOG = LoggerFactory.getLogger(RedisStateStore.class);

    /**
     * How to open a store. Immutable.
     *
     * @param prefix         the first part of every key (default {@code tl}); deployments sharing a server use different ones
     * @param clock          the time of update times and lease expiry (default the system clock)
     * @param connectTimeout how long connecting may take before failing (default 5 s)
     * @param commandTimeout how long one command may take before failing (default 10 s)
     * @param claimWindow    how old an unfinished branch create must be before another create of that id replaces it
     *                       (default 60 s)
     */
    public record Options(String prefix, Clock clock, Duration connectTimeout, Duration commandTimeout, Duration claimWindow) {
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

        private static Duration positive(Duration d, Duration otherwise, String field) {
            if (d == null) {
                return otherwise;
            }
            Require.argument(!d.isNegative() && !d.isZero(), field, "must be positive, was " + d);
            return d;
        }

        /** The defaults: prefix {@code tl}, the system clock, 5 s to connect, 10 s per command. */
        public static Options defaults() {
            return new Options(null, null, null, null, null);
        }

        public Options withPrefix(String p) {
            return new Options(p, clock, connectTimeout, commandTimeout, claimWindow);
        }

        public Options withClock(Clock c) {
            return new Options(prefix, c, connectTimeout, commandTimeout, claimWindow);
        }

        public Options withConnectTimeout(Duration d) {
            return new Options(prefix, clock, d, commandTimeout, claimWindow);
        }

        public Options withCommandTimeout(Duration d) {
            return new Options(prefix, clock, connectTimeout, d, claimWindow);
        }
    }

    private final Connection redis;
    private final Keys keys;
    private final Options options;
    private final String durability;
    private volatile boolean closed;

    private RedisStateStore(Connection redis, Options options) {
        this.redis = redis;
        this.options = options;
        this.keys = new Keys(options.prefix());
        this.durability = describeDurability();
    }

    /**
     * Connects to one Redis server ({@code redis://[user:password@]host:port[/db]}, {@code rediss://...}
     * for TLS) or, given {@code redis-cluster://host:port,host:port,...}, to a cluster.
     *
     * @throws InvalidInputException when the URL is malformed
     * @throws StorageException      in one line when the server cannot be reached
     */
    public static RedisStateStore open(String redisUrl, Options options) {
        Options opts = options == null ? Options.defaults() : options;
        Connection c = Connection.open(redisUrl, opts.connectTimeout(), opts.commandTimeout());
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

    /** Whether this store talks to a Redis Cluster. */
    public boolean isCluster() {
        return redis.cluster;
    }

    @Override
    public void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command) {
        Objects.requireNonNull(info, "info");
        SessionKey key = SessionKey.of(info);
        StoreChecks.batch(info.id(), info.parentSeq(), firstEvents);
        StoreChecks.createCommand(info, command);
        boolean branch = info.parentId() != null;
        CommandRecord own = command != null && command.session().equals(key) ? command : null;
        CommandRecord onParent = command != null && own == null ? command : null;
        String token = UUID.randomUUID().toString();
        List<String> args = new ArrayList<>(List.of("", RecordCodec.encodeSession(info), Long.toString(info.parentSeq()), "",
                token, branch ? "1" : "0", branch ? info.parentId() : "",
                info.expiresAt() == null ? "" : Long.toString(info.expiresAt().toEpochMilli()),
                own == null ? "" : own.commandId(), own == null ? "" : Records.encodeCommand(own), ""));
        firstEvents.forEach(e -> args.add(EventEntry.encode(e)));
        call("create session '" + info.id() + "'", () -> {
            Instant now = options.clock().instant();
            args.set(3, now.toString());
            args.set(10, Long.toString(now.toEpochMilli()));
            claim(key, args, now);
            if (branch) {
                adopt(info, key, token, onParent, now);
            }
            index(key, now);
            return null;
        });
    }

    /** Writes the session's keys, replacing an unfinished create older than the claim window. */
    private void claim(SessionKey key, List<String> args, Instant now) {
        for (int attempt = 0; ; attempt++) {
            Reply r = Reply.of(Scripts.CREATE.run(redis.sync, keys.session(key), args.toArray(String[]::new)));
            if (r.is("OK")) {
                return;
            }
            if (r.is("PEND") && !settle(key, r.text(0), r.text(1)) && attempt < 2
                    && Instant.parse(r.text(2)).plus(options.claimWindow()).isBefore(now)) {
                args.set(0, r.text(0));
                continue;
            }
            throw new SessionExistsException(key.id());
        }
    }

    /** The commit point of a branch: its parent checks the branch point and the command id, and adopts it. */
    private void adopt(SessionInfo info, SessionKey key, String token, CommandRecord onParent, Instant now) {
        SessionKey parent = key.sibling(info.parentId());
        Reply r;
        try {
            r = gated(parent, Scripts.ADOPT, key.id(), token, Long.toString(info.parentSeq()),
                    onParent == null ? "" : onParent.commandId(), onParent == null ? "" : Records.encodeCommand(onParent),
                    Long.toString(now.toEpochMilli()));
        } catch (RuntimeException e) {
            settleQuietly(key, token, "0");
            throw e;
        }
        if (r.is("OK")) {
            settleQuietly(key, token, "1");
            return;
        }
        Scripts.SETTLE.run(redis.sync, keys.session(key), token, "0");
        switch (r.status()) {
            case "NF" -> throw new SessionNotFoundException(info.parentId());
            case "PASTHEAD" -> StoreChecks.branchPoint(info, r.number(0));
            case "DUP" -> throw new DuplicateCommandException(Records.decodeCommand(parent, onParent.commandId(), r.text(0)));
            default -> { }
        }
        throw new StorageException("redis store: unexpected reply " + r.status() + " to the adoption of '" + key.id() + "'");
    }

    private void settleQuietly(SessionKey key, String token, String adopted) {
        try {
            Scripts.SETTLE.run(redis.sync, keys.session(key), token, adopted);
        } catch (RuntimeException e) {
            LOG.warn("redis store: branch '{}' stays marked unfinished ({}); the next access settles it", key.id(), Failures.cause(e));
        }
    }

    @Override
    public long append(AppendRequest request) {
        SessionKey key = request.key();
        StoreChecks.batch(key.id(), request.expectedSeq(), request.events());
        StoreChecks.command(request);
        CommandRecord c = request.command();
        String writes = request.writes().isEmpty() ? "" : Records.encodeWrites(request.writes());
        List<String> args = new ArrayList<>(List.of(Long.toString(request.expectedSeq()), Long.toString(request.epoch()), "",
                c == null ? "" : c.commandId(), c == null ? "" : Records.encodeCommand(c), writes, ""));
        request.events().forEach(e -> args.add(EventEntry.encode(e)));
        return call("append to session '" + key.id() + "' after seq " + request.expectedSeq(), () -> {
            for (int attempt = 0; ; attempt++) {
                Instant now = options.clock().instant();
                args.set(2, now.toString());
                args.set(6, Long.toString(now.toEpochMilli()));
                Reply r = gated(key, Scripts.APPEND, args.toArray(String[]::new));
                switch (r.status()) {
                    case "OK" -> {
                        if (!writes.isEmpty()) {
                            applyWrites(key, request.writes(), writes);
                        }
                        index(key, now);
                        return r.number(0);
                    }
                    case "NF" -> throw new SessionNotFoundException(key.id());
                    case "LEASE" -> throw new LeaseLostException(key.id(), request.epoch(), r.number(0));
                    case "SEQ" -> throw new VersionConflictException(key.id(), request.expectedSeq(), r.number(0));
                    case "DUP" -> throw new DuplicateCommandException(Records.decodeCommand(key, c.commandId(), r.text(0)));
                    case "WIP" -> {
                        if (attempt > 3) {
                            throw new StorageException("session '" + key.id() + "': the shared writes of its last step cannot be applied");
                        }
                        applyWrites(key, Records.decodeWrites(key.id(), r.text(0)), r.text(0)); // roll the last step forward
                    }
                    default -> throw new StorageException("redis store: unexpected reply " + r.status() + " to an append");
                }
            }
        });
    }

    /** Applies a step's shared writes (each scope is its own slot), then clears their record on the session. */
    private void applyWrites(SessionKey key, List<ScopedWrite> writes, String recorded) {
        for (ScopedWrite w : writes) {
            List<String> args = new ArrayList<>();
            args.add(Integer.toString(w.removed().size()));
            args.addAll(w.removed());
            w.set().forEach((name, value) -> {
                args.add(name);
                args.add(Json.write(value));
            });
            Scripts.VARS.run(redis.sync, new String[] {keys.variables(w.scope(), w.key())}, args.toArray(String[]::new));
        }
        Scripts.UNWIP.run(redis.sync, keys.session(key), recorded);
    }

    /** Moves the session to its update time in the tenant's index (never back: ZADD LT on minus the millis). */
    private void index(SessionKey key, Instant updated) {
        try {
            redis.sync.zadd(keys.index(key.tenant()), ZAddArgs.Builder.lt(), Records.score(updated), key.id());
        } catch (RuntimeException e) {
            LOG.warn("redis store: session '{}' is stored but its index entry was not updated ({}); its next write updates it",
                    key.id(), Failures.cause(e));
        }
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
        return call("read session '" + key.id() + "' seq " + fromSeq + ".." + toSeq, () -> {
            Reply r = found(key, gated(key, Scripts.READ, Long.toString(fromSeq), Long.toString(toSeq)));
            List<StoredEvent> out = new ArrayList<>();
            for (String entry : r.list(0)) {
                StoredEvent e = EventEntry.decode(key.id(), entry, transcriptOnly);
                if (e != null) {
                    out.add(e);
                }
            }
            return out;
        });
    }

    @Override
    public Optional<SessionInfo> session(SessionKey key) {
        return call("read session '" + key.id() + "'", () -> {
            Reply r = gated(key, Scripts.DESCRIBE);
            return r.is("NF") ? Optional.empty() : Optional.of(RecordCodec.decodeSession(key.id(), r.text(0)));
        });
    }

    @Override
    public Page<SessionSummary> list(SessionQuery query) {
        Objects.requireNonNull(query, "query");
        return call("list the sessions of tenant '" + query.tenant() + "'",
                () -> Listing.list(redis, keys, query, options.commandTimeout().toMillis()));
    }

    @Override
    public List<String> branches(SessionKey key) {
        return call("list the branches of session '" + key.id() + "'", () -> {
            Map<String, String> adopted = adopted(key);
            List<String> live = new ArrayList<>(liveBranches(key, adopted));
            live.sort(null);
            return live;
        });
    }

    /** The branches the session adopted, id to token (some may be gone: a delete that died before disowning). */
    private Map<String, String> adopted(SessionKey key) {
        List<String> pairs = found(key, gated(key, Scripts.KIDS)).list(0);
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            out.put(pairs.get(i), pairs.get(i + 1));
        }
        return out;
    }

    /** Of the adopted branches, those that still exist as the branch adopted (same creation token). */
    private List<String> liveBranches(SessionKey key, Map<String, String> adopted) {
        Map<String, io.lettuce.core.RedisFuture<String>> tokens = new HashMap<>();
        adopted.keySet().forEach(id -> tokens.put(id, redis.async.hget(keys.session(key.sibling(id))[0], "tok")));
        List<String> live = new ArrayList<>();
        for (Map.Entry<String, String> e : adopted.entrySet()) {
            try {
                if (e.getValue().equals(tokens.get(e.getKey()).get(options.commandTimeout().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))) {
                    live.add(e.getKey());
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new StorageException("interrupted while listing the branches of '" + key.id() + "'", ie);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
                throw new StorageException("redis store " + redis.url() + " unavailable: cannot check branch '" + e.getKey()
                        + "' (" + Failures.cause(ex) + ")", ex);
            }
        }
        return live;
    }

    @Override
    public void saveSnapshot(SessionKey key, StateSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        String stored = RecordCodec.VERSION + "\n" + RecordCodec.encodeSnapshot(snapshot);
        call("save a snapshot of session '" + key.id() + "' at seq " + snapshot.seq(), () -> {
            found(key, gated(key, Scripts.SNAPSAVE, Long.toString(snapshot.seq()), stored,
                    Long.toString(options.clock().millis())));
            return null;
        });
    }

    @Override
    public Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq) {
        return call("read a snapshot of session '" + key.id() + "'", () -> {
            for (String stored : found(key, gated(key, Scripts.SNAPLATEST, Long.toString(maxSeq))).list(0)) {
                int eol = stored == null ? -1 : stored.indexOf('\n');
                if (eol > 0) {
                    try {
                        StateSnapshot s = RecordCodec.decodeSnapshot(key.id(), Integer.parseInt(stored.substring(0, eol)), stored.substring(eol + 1));
                        if (s != null) {
                            return Optional.of(s);
                        }
                    } catch (NumberFormatException ignored) {
                        // a corrupt snapshot costs replay time only: try an older one
                    }
                }
            }
            return Optional.<StateSnapshot>empty();
        });
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope, String key) {
        Objects.requireNonNull(scope, "scope");
        Require.nonBlank(key, "key");
        return call("read the " + scope.wireName() + " variables of '" + key + "'", () -> {
            Map<String, JsonNode> out = new HashMap<>();
            redis.sync.hgetall(keys.variables(scope, key)).forEach((name, json) -> out.put(name, Json.parse(json, name)));
            return Map.copyOf(out);
        });
    }

    @Override
    public LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder) {
        StoreChecks.lease(owner, ttl);
        return call("acquire the lease of session '" + key.id() + "' for " + owner, () -> {
            Instant now = options.clock().instant();
            Instant until = now.plus(ttl);
            String[] n = Records.secNanos(now);
            String[] u = Records.secNanos(until);
            Reply r = found(key, gated(key, Scripts.ACQUIRE, owner, n[0], n[1], u[0], u[1], deadHolder == null ? "" : deadHolder));
            if (r.is("HELD")) {
                return new LeaseResult.Held(new Lease(key, r.text(1), r.number(0), Records.instant(r.text(2), r.text(3))));
            }
            Lease previous = r.values().size() > 1
                    ? new Lease(key, r.text(1), Long.parseLong(r.text(2)), Records.instant(r.text(3), r.text(4))) : null;
            return new LeaseResult.Acquired(new Lease(key, owner, r.number(0), until), previous);
        });
    }

    @Override
    public Lease renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        StoreChecks.lease(lease.owner(), ttl);
        SessionKey key = lease.key();
        return call("renew the lease of session '" + key.id() + "' for " + lease.owner(), () -> {
            Instant until = options.clock().instant().plus(ttl);
            String[] u = Records.secNanos(until);
            Reply r = found(key, gated(key, Scripts.RENEW, lease.owner(), Long.toString(lease.epoch()), u[0], u[1]));
            if (r.is("LOST")) {
                throw new LeaseLostException(key.id(), lease.epoch(), r.number(0));
            }
            return new Lease(key, lease.owner(), lease.epoch(), until);
        });
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        call("release the lease of session '" + lease.key().id() + "'", () ->
                Scripts.RELEASE.run(redis.sync, keys.session(lease.key()), lease.owner(), Long.toString(lease.epoch())));
    }

    @Override
    public Optional<Lease> lease(SessionKey key) {
        Reply r = describe(key, "read the lease of session '" + key.id() + "'");
        return r.text(4) == null ? Optional.empty()
                : Optional.of(new Lease(key, r.text(4), Long.parseLong(r.text(3)), Records.instant(r.text(5), r.text(6))));
    }

    @Override
    public Optional<CommandRecord> command(SessionKey key, String commandId) {
        Require.nonBlank(commandId, "command id");
        return call("read command '" + commandId + "' of session '" + key.id() + "'", () -> {
            String stored = found(key, gated(key, Scripts.COMMAND, commandId)).text(0);
            return stored == null ? Optional.<CommandRecord>empty() : Optional.of(Records.decodeCommand(key, commandId, stored));
        });
    }

    @Override
    public void delete(SessionKey key) {
        call("delete session '" + key.id() + "'", () -> {
            for (int attempt = 0; attempt < 5; attempt++) {
                Map<String, String> adopted = adopted(key);
                List<String> live = liveBranches(key, adopted);
                if (!live.isEmpty()) {
                    List<String> sorted = new ArrayList<>(live);
                    sorted.sort(null);
                    throw new InvalidInputException("session", "'" + key.id() + "' has branches " + sorted
                            + " that share its journal; delete them first");
                }
                List<String> gone = new ArrayList<>();
                adopted.forEach((id, token) -> {
                    gone.add(id);
                    gone.add(token);
                });
                Reply r = found(key, gated(key, Scripts.DELETE, gone.toArray(String[]::new)));
                if (r.is("KIDS")) {
                    continue; // a branch was adopted meanwhile: look again
                }
                String parent = r.text(1);
                if (parent != null) {
                    Scripts.DISOWN.run(redis.sync, keys.session(key.sibling(parent)), key.id(), r.text(0));
                }
                Scripts.UNINDEX.run(redis.sync, new String[] {keys.index(key.tenant())}, key.id(),
                        Long.toString((long) Records.score(Instant.parse(r.text(2)))));
                return null;
            }
            throw new StorageException("session '" + key.id() + "': its branches kept changing while it was being deleted; try again");
        });
    }

    @Override
    public String durability() {
        return durability;
    }

    private String describeDurability() {
        String where = "redis " + (redis.cluster ? "cluster" : "standalone") + " " + redis.url();
        try {
            Map<String, String> c = redis.sync.configGet("appendonly", "appendfsync");
            boolean aof = "yes".equals(c.get("appendonly"));
            String fsync = c.getOrDefault("appendfsync", "?");
            if (!aof) {
                return where + ", no AOF: an acknowledged append is lost if the server crashes before its next RDB save";
            }
            return where + ", AOF appendfsync " + fsync + (fsync.equals("always")
                    ? ": an acknowledged append survives a server crash (replicas are asynchronous: a failover may lose it)"
                    : ": a server crash may lose up to about a second of acknowledged appends");
        } catch (RuntimeException e) {
            return where + ": durability depends on the server's AOF settings (appendonly yes, appendfsync always recommended)";
        }
    }

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
        return call(what, () -> found(key, gated(key, Scripts.DESCRIBE)));
    }

    /**
     * Runs a script on a session's keys. A branch whose create is unfinished (PEND) is settled first:
     * confirmed if its parent adopted it, else treated as absent (NF).
     */
    private Reply gated(SessionKey key, Scripts script, String... args) {
        String[] k = keys.session(key);
        for (int attempt = 0; ; attempt++) {
            Reply r = Reply.of(script.run(redis.sync, k, args));
            if (!r.is("PEND")) {
                return r;
            }
            if (attempt > 2 || !settle(key, r.text(0), r.text(1))) {
                return new Reply("NF", List.of());
            }
        }
    }

    /** Whether the unfinished branch (token, parent) was adopted by its parent; if so, marks it finished. */
    private boolean settle(SessionKey key, String token, String parent) {
        if (token == null || parent == null) {
            return false;
        }
        if (!token.equals(redis.sync.hget(keys.session(key.sibling(parent))[5], key.id()))) {
            return false;
        }
        Scripts.SETTLE.run(redis.sync, keys.session(key), token, "1");
        return true;
    }

    private static Reply found(SessionKey key, Reply r) {
        if (r.is("NF")) {
            throw new SessionNotFoundException(key.id());
        }
        return r;
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
