package dev.threadline.core.store.memory;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.internal.store.StoreChecks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A store in process memory: fast, and gone when the process ends. For tests, demos and sessions that
 * need no durability; it is the reference implementation of every role of {@link StateStore}.
 * Thread-safe by one monitor: every operation is short, and {@link #awaitHead} waits on it.
 */
public final class InMemoryStateStore implements StateStore {

    private static final class Row {
        final SessionInfo info;
        final List<StoredEvent> own = new ArrayList<>();
        final TreeMap<Long, StateSnapshot> snapshots = new TreeMap<>();
        final Map<String, CommandRecord> commands = new HashMap<>();
        dev.threadline.core.store.HistoryBase base;
        long head;
        Instant updatedAt;
        long epoch;
        Lease lease;
        long interruptEpoch;
        String interruptReason;

        Row(SessionInfo info, long head, Instant updatedAt) {
            this.info = info;
            this.head = head;
            this.updatedAt = updatedAt;
        }
    }

    private final Map<SessionKey, Row> sessions = new HashMap<>();
    /** Each tenant's wrapped data keys by number (ADR 0049). */
    private final Map<String, java.util.TreeMap<Integer, dev.threadline.core.store.WrappedDataKey>> dataKeys = new HashMap<>();
    private final Map<String, Map<String, JsonNode>> shared = new HashMap<>();
    private final Clock clock;
    private boolean closed;

    /** A store on the system clock. */
    public InMemoryStateStore() {
        this(Clock.systemUTC());
    }

    /** A store whose update times and lease expiries follow {@code clock}. */
    public InMemoryStateStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command) {
        open();
        SessionKey key = SessionKey.of(info);
        if (sessions.containsKey(key)) {
            throw new SessionExistsException(info.id());
        }
        long base = 0;
        if (info.parentId() != null) {
            Row parent = row(key.sibling(info.parentId()));
            StoreChecks.branchPoint(info, parent.head, parent.base == null ? 0 : parent.base.seq());
            base = info.parentSeq();
        }
        StoreChecks.batch(info.id(), base, firstEvents);
        StoreChecks.createCommand(info, command);
        Row commandRow = null;
        if (command != null) {
            commandRow = command.session().equals(key) ? null : row(command.session());
            CommandRecord existing = commandRow == null ? null : commandRow.commands.get(command.commandId());
            if (existing != null) {
                throw new DuplicateCommandException(existing);
            }
        }
        Row r = new Row(info, base, clock.instant());
        r.own.addAll(firstEvents);
        r.head = base + firstEvents.size();
        sessions.put(key, r);
        if (command != null) {
            (commandRow == null ? r : commandRow).commands.put(command.commandId(), command);
        }
        notifyAll();
    }

    @Override
    public synchronized long append(AppendRequest request) {
        open();
        SessionKey key = request.key();
        Row r = row(key);
        if (r.epoch != request.epoch()) {
            throw new LeaseLostException(key.id(), request.epoch(), r.epoch);
        }
        if (r.head != request.expectedSeq()) {
            throw new VersionConflictException(key.id(), request.expectedSeq(), r.head);
        }
        StoreChecks.batch(key.id(), request.expectedSeq(), request.events());
        StoreChecks.command(request);
        CommandRecord c = request.command();
        if (c != null && r.commands.containsKey(c.commandId())) {
            throw new DuplicateCommandException(r.commands.get(c.commandId()));
        }
        r.own.addAll(request.events());
        r.head = request.expectedSeq() + request.events().size();
        r.updatedAt = clock.instant();
        if (c != null) {
            r.commands.put(c.commandId(), c);
        }
        for (ScopedWrite w : request.writes()) {
            Map<String, JsonNode> vars = shared.computeIfAbsent(w.scope().wireName() + ":" + w.key(), k -> new HashMap<>());
            w.removed().forEach(vars::remove);
            vars.putAll(w.set());
        }
        notifyAll();
        return r.head;
    }

    @Override
    public synchronized long head(SessionKey key) {
        return row(key).head;
    }

    @Override
    public synchronized long awaitHead(SessionKey key, long afterSeq, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long head = row(key).head;
            long left = deadline - System.nanoTime();
            if (head > afterSeq || left <= 0 || closed) {
                return head;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    @Override
    public synchronized List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq) {
        Row r = row(key);
        return r.own.stream().filter(e -> e.seq() >= fromSeq && e.seq() <= toSeq).toList();
    }

    @Override
    public synchronized Optional<SessionInfo> session(SessionKey key) {
        open();
        Row r = sessions.get(key);
        return r == null ? Optional.empty() : Optional.of(r.info);
    }

    @Override
    public synchronized Page<SessionSummary> list(SessionQuery query) {
        open();
        Comparator<Row> order = Comparator.comparing((Row r) -> r.updatedAt).reversed().thenComparing(r -> r.info.id());
        String tag = StoreChecks.queryTag(query);
        dev.threadline.core.internal.store.ListingCursor after = query.cursor() == null ? null
                : dev.threadline.core.internal.store.ListingCursor.parse(query.cursor(), tag);
        List<Row> rows = sessions.values().stream()
                .filter(r -> r.info.tenant().equals(query.tenant()))
                .filter(r -> query.userId() == null || r.info.userId().equals(query.userId()))
                .filter(r -> r.info.metadata().entrySet().containsAll(query.metadata().entrySet()))
                .filter(r -> after == null || after.before(dev.threadline.core.internal.store.EpochNanos.of(r.updatedAt), r.info.id()))
                .sorted(order)
                .limit(query.limit() + 1L)
                .toList();
        List<SessionSummary> items = rows.stream().limit(query.limit())
                .map(r -> new SessionSummary(r.info, r.head, r.updatedAt)).toList();
        String next = rows.size() > query.limit() ? new dev.threadline.core.internal.store.ListingCursor(
                dev.threadline.core.internal.store.EpochNanos.of(items.get(items.size() - 1).updatedAt()), items.get(items.size() - 1).info().id()).format(tag) : null;
        return new Page<>(items, next);
    }

    @Override
    public synchronized List<String> branches(SessionKey key) {
        row(key);
        return sessions.values().stream()
                .filter(r -> r.info.tenant().equals(key.tenant()) && key.id().equals(r.info.parentId()))
                .map(r -> r.info.id()).sorted().toList();
    }

    @Override
    public synchronized List<SessionKey> expired(Instant now, int limit) {
        StoreChecks.expired(now, limit);
        open();
        return sessions.entrySet().stream()
                .filter(e -> e.getValue().info.expiresAt() != null && !e.getValue().info.expiresAt().isAfter(now))
                .sorted(Comparator.comparing((Map.Entry<SessionKey, Row> e) -> e.getValue().info.expiresAt())
                        .thenComparing(e -> e.getKey().tenant()).thenComparing(e -> e.getKey().id()))
                .limit(limit).map(Map.Entry::getKey).toList();
    }

    @Override
    public synchronized void saveSnapshot(SessionKey key, StateSnapshot snapshot) {
        row(key).snapshots.put(snapshot.seq(), snapshot);
    }

    @Override
    public synchronized Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq) {
        Map.Entry<Long, StateSnapshot> e = row(key).snapshots.floorEntry(maxSeq);
        return e == null ? Optional.empty() : Optional.of(e.getValue());
    }

    @Override
    public synchronized Map<String, JsonNode> variables(VariableScope scope, String key) {
        open();
        return Map.copyOf(shared.getOrDefault(scope.wireName() + ":" + key, Map.of()));
    }

    @Override
    public synchronized LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder) {
        StoreChecks.lease(owner, ttl);
        Row r = row(key);
        Instant now = clock.instant();
        Lease current = r.lease;
        if (current != null && current.owner().equals(owner)) {
            r.lease = new Lease(key, owner, current.epoch(), now.plus(ttl));
            return new LeaseResult.Acquired(r.lease, null);
        }
        if (current != null && !current.expiredAt(now) && !current.owner().equals(deadHolder)) {
            return new LeaseResult.Held(current);
        }
        r.epoch++;
        r.lease = new Lease(key, owner, r.epoch, now.plus(ttl));
        return new LeaseResult.Acquired(r.lease, current);
    }

    @Override
    public synchronized Lease renew(Lease lease, Duration ttl) {
        StoreChecks.lease(lease.owner(), ttl);
        Row r = row(lease.key());
        if (r.lease == null || r.epoch != lease.epoch() || !r.lease.owner().equals(lease.owner())) {
            throw new LeaseLostException(lease.key().id(), lease.epoch(), r.epoch);
        }
        r.lease = new Lease(lease.key(), lease.owner(), lease.epoch(), clock.instant().plus(ttl));
        return r.lease;
    }

    @Override
    public synchronized void release(Lease lease) {
        Row r = sessions.get(lease.key());
        if (r != null && r.lease != null && r.epoch == lease.epoch() && r.lease.owner().equals(lease.owner())) {
            r.lease = null;
        }
    }

    @Override
    public synchronized boolean requestInterrupt(SessionKey key, long epoch, String reason) {
        Row r = row(key);
        r.interruptEpoch = epoch;
        r.interruptReason = reason;
        return true;
    }

    @Override
    public synchronized Optional<String> takeInterruptRequest(Lease lease) {
        Row r = sessions.get(lease.key());
        if (r == null || r.interruptReason == null || r.interruptEpoch != lease.epoch() || r.epoch != lease.epoch()) {
            return Optional.empty();
        }
        String reason = r.interruptReason;
        r.interruptReason = null;
        return Optional.of(reason);
    }

    @Override
    public synchronized Optional<Lease> lease(SessionKey key) {
        return Optional.ofNullable(row(key).lease);
    }

    @Override
    public synchronized Optional<CommandRecord> command(SessionKey key, String commandId) {
        return Optional.ofNullable(row(key).commands.get(commandId));
    }

    @Override
    public synchronized void delete(SessionKey key) {
        row(key);
        List<String> children = branches(key);
        if (!children.isEmpty()) {
            throw new InvalidInputException("session", "'" + key.id() + "' has branches " + children + " that share its"
                    + " journal; delete them first");
        }
        sessions.remove(key);
        notifyAll();
    }

    @Override
    public boolean keepsDataKeys() {
        return true;
    }

    @Override
    public synchronized List<dev.threadline.core.store.WrappedDataKey> dataKeys(String tenant) {
        return dataKeys.getOrDefault(tenant, new java.util.TreeMap<>()).values().stream().toList();
    }

    @Override
    public synchronized boolean addDataKey(dev.threadline.core.store.WrappedDataKey key) {
        return dataKeys.computeIfAbsent(key.tenant(), t -> new java.util.TreeMap<>()).putIfAbsent(key.number(), key) == null;
    }

    @Override
    public synchronized boolean rewrapDataKey(dev.threadline.core.store.WrappedDataKey current,
                                              dev.threadline.core.store.WrappedDataKey rewrapped) {
        DataKeys.sameKey(current, rewrapped);
        Map<Integer, dev.threadline.core.store.WrappedDataKey> keys = dataKeys.get(current.tenant());
        return keys != null && keys.replace(current.number(), current, rewrapped);
    }

    @Override
    public boolean prunesHistory() {
        return true;
    }

    @Override
    public synchronized void prune(SessionKey key, dev.threadline.core.store.HistoryBase base) {
        Row r = row(key);
        Map<String, Long> points = new java.util.TreeMap<>();
        for (Row b : sessions.values()) {
            if (b.info.tenant().equals(key.tenant()) && key.id().equals(b.info.parentId())) {
                points.put(b.info.id(), b.info.parentSeq());
            }
        }
        StoreChecks.prune(r.info, r.head, r.base == null ? 0 : r.base.seq(), base.seq(), points);
        r.own.removeIf(e -> e.seq() <= base.seq());
        r.snapshots.headMap(base.seq(), true).clear();
        r.base = base;
    }

    @Override
    public synchronized void createFromBase(SessionInfo info, dev.threadline.core.store.HistoryBase base, List<StoredEvent> firstEvents,
                                            CommandRecord command) {
        open();
        SessionKey key = SessionKey.of(info);
        if (sessions.containsKey(key)) {
            throw new SessionExistsException(info.id());
        }
        if (info.parentId() != null) {
            Row parent = row(key.sibling(info.parentId()));
            StoreChecks.branchPoint(info, parent.head, parent.base == null ? 0 : parent.base.seq());
        }
        StoreChecks.fromBase(info, base, firstEvents, command);
        Row r = new Row(info, base.seq() + firstEvents.size(), clock.instant());
        r.own.addAll(firstEvents);
        r.base = base;
        if (command != null) {
            r.commands.put(command.commandId(), command);
        }
        sessions.put(key, r);
        notifyAll();
    }

    @Override
    public synchronized Optional<dev.threadline.core.store.HistoryBase> historyBase(SessionKey key) {
        return Optional.ofNullable(row(key).base);
    }

    @Override
    public String durability() {
        return "in-memory: nothing survives the process";
    }

    @Override
    public synchronized void close() {
        closed = true;
        notifyAll();
    }

    private void open() {
        if (closed) {
            throw new StorageException("the in-memory store is closed");
        }
    }

    private Row row(SessionKey key) {
        open();
        Row r = sessions.get(key);
        if (r == null) {
            throw new SessionNotFoundException(key.id());
        }
        return r;
    }
}
