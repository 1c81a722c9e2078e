package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.LeaseLostException;
import dev.threadline.core.Require;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.StorageException;
import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.internal.store.Lineage;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import dev.threadline.core.internal.log.Logs;
import org.slf4j.Logger;

/**
 * The only writer of state. {@link #update} reads the current state, asks a {@link Decider} for the
 * events of one step, checks them with the reducer, appends them with the expected seq and the
 * lease's fencing epoch, applies them and publishes them. A write happens only inside a command that
 * holds the session's lease ({@link LeaseKeeper}); the store refuses a stale epoch, and the
 * expected seq stays the last line of defence.
 *
 * <p>Reads never write. {@link #get} trusts the cached state only while this process holds the
 * session's lease; otherwise it compares the cache with the store's head and folds just the tail.
 *
 * <p>Thread-safe. Sessions are cached (bounded, least recently used out) and reloaded from the newest
 * snapshot plus the journal tail.
 */
final class StateManager {
    private static final Logger LOG = Logs.get(StateManager.class);
    private static final int MAX_ATTEMPTS = 8;
    static final String CRASH_REASON = "the process that ran this tool call stopped (crash, kill or a stall past its lease);"
            + " its outcome is unknown, so it was recorded as failed when another process took the session over";

    private final StateStore store;
    private final Clock clock;
    private final int snapshotEvery;
    private final StateCache cache;
    private final LeaseKeeper leases;
    private final SessionLocks locks = new SessionLocks();
    private final List<Subscription> listeners = new CopyOnWriteArrayList<>();

    /** A listener and the tenant whose sessions it hears of. */
    private record Subscription(String tenant, EventListener listener) {}

    StateManager(StateStore store, Clock clock, int snapshotEvery, int cacheCapacity, LeaseKeeper leases) {
        this.store = Require.nonNull(store, "store");
        this.clock = Require.nonNull(clock, "clock");
        this.snapshotEvery = snapshotEvery;
        this.cache = new StateCache(cacheCapacity);
        this.leases = leases;
    }

    StateStore store() {
        return store;
    }

    Clock clock() {
        return clock;
    }

    void addListener(String tenant, EventListener listener) {
        listeners.add(new Subscription(tenant, Require.nonNull(listener, "listener")));
    }

    void removeListener(String tenant, EventListener listener) {
        listeners.removeIf(s -> s.tenant().equals(tenant) && s.listener() == listener);
    }

    /** The session's description. */
    SessionInfo info(SessionKey key) {
        return store.session(key).orElseThrow(() -> new SessionNotFoundException(key.id()));
    }

    /** The current state. Never writes; catches up from the store's head unless this process holds the lease. */
    State get(SessionKey key) {
        State cached = cache.get(key);
        if (cached != null && leases.trusts(key)) {
            return cached;
        }
        return refresh(key);
    }

    /** Whether the session's state is cached (it is not after a failed append, or once evicted). */
    boolean isCached(SessionKey key) {
        return cache.get(key) != null;
    }

    /** Reads the store's head and brings the cached state up to it (a tail read, or a load when nothing is cached). */
    State refresh(SessionKey key) {
        long head = store.head(key);
        State cached = cache.get(key);
        if (cached != null && cached.seq() == head) {
            return cached;
        }
        State s;
        if (cached != null && cached.seq() < head) {
            s = cached;
            for (StoredEvent e : Lineage.read(store, key, cached.seq() + 1, head)) {
                s = Reducer.apply(s, e);
            }
        } else {
            s = load(key, head);
        }
        cache.putIfNewer(key, s);
        return s;
    }

    /** The state as of journal position {@code seq} (read-only; nothing is cached). */
    State stateAt(SessionKey key, long seq) {
        long head = store.head(key);
        Require.argument(seq >= 1 && seq <= head, "seq", "session '" + key.id() + "' has seq 1.." + head + ", not " + seq);
        return load(key, seq);
    }

    /**
     * Creates a session with its first events; {@code check} sees the state they produce and may refuse
     * it (throw) before anything is written.
     */
    Commit create(SessionInfo info, CheckpointSource source, Cmd cmd, List<Event> firstEvents, Consumer<State> check) {
        SessionKey key = SessionKey.of(info);
        long base = info.parentId() == null ? 0 : info.parentSeq();
        State start = info.parentId() == null ? State.EMPTY : load(key.sibling(info.parentId()), info.parentSeq());
        List<StoredEvent> stored = new ArrayList<>();
        State next = stage(info.id(), start, base, source, cmd.id(), firstEvents, stored);
        check.accept(next);
        store.create(info, stored, cmd.record());
        cmd.recorded();
        cache.put(key, next);
        publish(key, stored, next);
        return new Commit(stored, next);
    }

    /**
     * Runs one step: {@code decider} sees the current state and returns the events to append (none
     * for a no-op). Events the reducer refuses raise {@code InvalidEventException} and nothing is
     * written. Must run inside a command holding the session's lease.
     */
    Commit update(SessionKey key, CheckpointSource source, Cmd cmd, Decider decider) {
        Require.nonNull(decider, "decider");
        locks.lock(key);
        try {
            for (int attempt = 1; ; attempt++) {
                if (!leases.trusts(key)) {
                    leases.confirm(key); // after a stall: decide only on a lease that is still ours
                }
                State s = get(key);
                if (!leases.trusts(key)) {
                    // the read outlasted the lease (a stall): it may show another process's writes, so
                    // decide only once the lease is confirmed ours (else LeaseLostException, nothing written)
                    leases.confirm(key);
                }
                List<Event> events = decider.decide(s);
                if (events == null || events.isEmpty()) {
                    return new Commit(List.of(), s);
                }
                try {
                    return append(key, s, source, cmd, events);
                } catch (VersionConflictException e) {
                    cache.remove(key);
                    if (attempt >= MAX_ATTEMPTS) {
                        throw e;
                    }
                    LOG.debug("session {}: {}; deciding again", key, e.getMessage());
                }
            }
        } finally {
            locks.unlock(key);
        }
    }

    /** {@link #handleToolResult(SessionKey, Cmd, Event.ToolCallEnded, List, Map)} with no temp variables of a turn. */
    ToolResultOutcome handleToolResult(SessionKey key, Cmd cmd, Event.ToolCallEnded result, List<VariableWrite> writes) {
        return handleToolResult(key, cmd, result, writes, new HashMap<>());
    }

    /**
     * Records the result of a tool call, with the variable writes the skill proposed, in one step. The
     * writes apply to the variables as they are now (see {@link VariableWrites}), so parallel calls'
     * writes merge in the order their results are recorded; writes that cannot apply turn the result
     * into an error. A result whose tool_use id is not pending (late after a timeout, a duplicate,
     * unknown, or of another session) is refused: nothing is written and the refusal says why.
     *
     * @param temp the turn's temp variables, updated with the result's temp writes once it is recorded;
     *             callers sharing one map serialise their calls
     */
    ToolResultOutcome handleToolResult(SessionKey key, Cmd cmd, Event.ToolCallEnded result, List<VariableWrite> writes,
                                       Map<String, JsonNode> temp) {
        Require.nonNull(result, "result");
        String[] refusal = new String[1];
        VariableWrites.Plan[] plan = new VariableWrites.Plan[1];
        Commit c = update(key, CheckpointSource.LOOP, cmd, s -> {
            Optional<PendingToolCall> p = s.pending().stream().filter(x -> x.toolUseId().equals(result.toolUseId())).findFirst();
            if (p.isEmpty()) {
                refusal[0] = "no pending tool call has id '" + result.toolUseId() + "' (late, duplicate or unknown)";
                return List.of();
            }
            if (p.get().answered()) {
                refusal[0] = "tool call '" + result.toolUseId() + "' already has a result";
                return List.of();
            }
            refusal[0] = null;
            plan[0] = VariableWrites.plan(writes, s.variables(), VariableWrites.sharedIn(store, () -> info(key)), Map.copyOf(temp));
            return plan[0].recording(result);
        });
        if (c.isEmpty()) {
            LOG.warn("session {}: refused a tool result: {}", key, refusal[0]);
            return new ToolResultOutcome.Refused(result.toolUseId(), refusal[0], c.state());
        }
        plan[0].applyTemp(temp);
        return new ToolResultOutcome.Accepted(c);
    }

    /** Drops the session from memory; the next use reloads it from the store. */
    void evict(SessionKey key) {
        cache.remove(key);
    }

    int cachedSessions() {
        return cache.size();
    }

    /**
     * A fresh command id: a version 7 UUID (RFC 9562) in canonical text, the Unix time in milliseconds and
     * then 74 random bits. An id must be unique, not unguessable, so the bits come from this thread's
     * {@link ThreadLocalRandom}: {@link UUID#randomUUID} reads the shared {@code /dev/urandom} under a lock
     * at every command (about 2 µs of a step's CPU in {@code threadline bench step-parts}). Time order
     * also keeps a store's index of command ids filling at its end.
     */
    static String newCommandId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (System.currentTimeMillis() << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() >>> 2) | 0x8000_0000_0000_0000L; // the IETF variant, 10 in the top bits
        return new UUID(high, low).toString();
    }

    // ---- internals ---------------------------------------------------------------------------------

    private Commit append(SessionKey key, State s, CheckpointSource source, Cmd cmd, List<Event> events) {
        List<StoredEvent> stored = new ArrayList<>(events.size());
        State next = stage(key.id(), s, s.seq(), source, cmd.id(), events, stored);
        List<ScopedWrite> writes = scopedWrites(key, events);
        try {
            store.append(new AppendRequest(key, s.seq(), leases.epoch(key), stored, writes, cmd.recordAt(key, s.seq() + 1)));
        } catch (LeaseLostException e) {
            cache.remove(key);
            leases.lost(key, e);
            throw e;
        } catch (RuntimeException e) {
            cache.remove(key); // whatever happened, the next read goes to the store
            throw e;
        }
        cmd.recorded();
        cache.put(key, next);
        if (next.seq() / snapshotEvery != s.seq() / snapshotEvery) {
            try {
                store.saveSnapshot(key, next.snapshot());
            } catch (StorageException e) {
                LOG.warn("session {}: snapshot at seq {} not saved ({}); loading will replay more", key, next.seq(), e.getMessage());
            }
        }
        publish(key, stored, next);
        return new Commit(stored, next);
    }

    private State stage(String sessionId, State s, long base, CheckpointSource source, String commandId,
                        List<Event> events, List<StoredEvent> out) {
        Instant now = clock.instant();
        long step = s.step() + 1;
        long seq = base;
        State next = s;
        for (Event e : events) {
            StoredEvent se = new StoredEvent(sessionId, ++seq, step, now, commandId, source, e);
            next = Reducer.apply(next, se);
            out.add(se);
        }
        return next;
    }

    private List<ScopedWrite> scopedWrites(SessionKey key, List<Event> events) {
        List<ScopedWrite> writes = new ArrayList<>();
        SessionInfo[] info = new SessionInfo[1];
        for (Event e : events) {
            if (e instanceof Event.VariablesChanged v && v.scope() != VariableScope.SESSION) {
                writes.add(new ScopedWrite(v.scope(), sharedKey(key, info, v.scope()), v.set(), v.removed()));
            } else if (e instanceof Event.StateEdited edited) {
                for (dev.threadline.core.state.Edit edit : edited.edits()) {
                    switch (edit) {
                        case dev.threadline.core.state.Edit.SetVariable sv when sv.scope() != VariableScope.SESSION ->
                                writes.add(new ScopedWrite(sv.scope(), sharedKey(key, info, sv.scope()), Map.of(sv.name(), sv.value()), List.of()));
                        case dev.threadline.core.state.Edit.RemoveVariable rv when rv.scope() != VariableScope.SESSION ->
                                writes.add(new ScopedWrite(rv.scope(), sharedKey(key, info, rv.scope()), Map.of(), List.of(rv.name())));
                        default -> { } // session variables and messages fold into State
                    }
                }
            }
        }
        return writes;
    }

    /** The shared-table key of a user or app scope for this session (its description read once per append). */
    private String sharedKey(SessionKey key, SessionInfo[] info, VariableScope scope) {
        if (info[0] == null) {
            info[0] = info(key);
        }
        return scope == VariableScope.USER ? ScopedWrite.userKey(info[0].tenant(), info[0].userId()) : ScopedWrite.appKey(info[0].tenant());
    }

    /** Snapshot + transcript-only replay before it + full replay after it, up to {@code toSeq}. */
    private State load(SessionKey key, long toSeq) {
        Optional<StateSnapshot> snap = Lineage.latestSnapshot(store, key, toSeq);
        State s = State.EMPTY;
        long from = 1;
        if (snap.isPresent()) {
            State t = State.EMPTY;
            for (Event e : Lineage.readTranscriptEvents(store, key, 1, snap.get().seq())) {
                t = Reducer.applyTranscriptOnly(t, e);
            }
            s = State.fromSnapshot(snap.get(), t.messages());
            from = snap.get().seq() + 1;
        }
        for (StoredEvent e : Lineage.read(store, key, from, toSeq)) {
            s = Reducer.apply(s, e);
        }
        return s;
    }

    private void publish(SessionKey key, List<StoredEvent> events, State state) {
        for (Subscription sub : listeners) {
            if (!sub.tenant().equals(key.tenant())) {
                continue;
            }
            try {
                sub.listener().onCommit(key.id(), events, state);
            } catch (RuntimeException e) {
                LOG.warn("session {}: a listener failed: {}", key, e.toString());
            }
        }
    }
}
