package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.InvalidEventException;
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
import dev.threadline.core.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Lineage;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only writer of state. {@link #update} reads the current state, asks a {@link Decider} for the
 * events of one step, checks them with the reducer, appends them with the expected seq (the store's
 * compare-and-set), applies them and publishes them. Updates of one session are serialised in this
 * process by a per-session lock; across processes the expected seq refuses a stale writer, and the
 * decider runs again on the fresh state.
 *
 * <p>Thread-safe. Sessions are cached (bounded, least recently used out) and reloaded from the newest
 * snapshot plus the journal tail.
 */
public final class StateManager {
    private static final Logger LOG = LoggerFactory.getLogger(StateManager.class);
    private static final int MAX_ATTEMPTS = 8;
    static final String CRASH_REASON = "the process stopped while this tool call was running (crash or kill);"
            + " its outcome is unknown, so it was recorded as failed when the session was next loaded";

    private final StateStore store;
    private final Clock clock;
    private final int snapshotEvery;
    private final StateCache cache;
    private final ReentrantLock[] locks = new ReentrantLock[256];
    private final List<EventListener> listeners = new CopyOnWriteArrayList<>();
    private final Set<String> activeTurns = ConcurrentHashMap.newKeySet();

    public StateManager(StateStore store, Clock clock, int snapshotEvery, int cacheCapacity) {
        this.store = Require.nonNull(store, "store");
        this.clock = Require.nonNull(clock, "clock");
        Require.argument(snapshotEvery >= 1, "snapshotEvery", "must be at least 1");
        Require.argument(cacheCapacity >= 1, "cacheCapacity", "must be at least 1");
        this.snapshotEvery = snapshotEvery;
        this.cache = new StateCache(cacheCapacity);
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    public StateStore store() {
        return store;
    }

    public Clock clock() {
        return clock;
    }

    public void addListener(EventListener listener) {
        listeners.add(Require.nonNull(listener, "listener"));
    }

    public void removeListener(EventListener listener) {
        listeners.remove(listener);
    }

    /** The session's description. */
    public SessionInfo info(String sessionId) {
        return store.session(sessionId).orElseThrow(() -> new SessionNotFoundException(sessionId));
    }

    /** The current state (loading it, and recovering a turn a dead process left running, when needed). */
    public State get(String sessionId) {
        State s = cache.get(sessionId);
        if (s != null) {
            return s;
        }
        ReentrantLock lock = lockFor(sessionId);
        lock.lock();
        try {
            return current(sessionId);
        } finally {
            lock.unlock();
        }
    }

    /** The state as of journal position {@code seq} (read-only; nothing is recovered or cached). */
    public State stateAt(String sessionId, long seq) {
        long head = store.head(sessionId);
        Require.argument(seq >= 1 && seq <= head, "seq", "session '" + sessionId + "' has seq 1.." + head + ", not " + seq);
        return load(sessionId, seq);
    }

    /** Creates a session with its first events (SessionCreated, or BranchCreated and what closes a mid-turn branch point). */
    public Commit create(SessionInfo info, CheckpointSource source, List<Event> firstEvents) {
        long base = info.parentId() == null ? 0 : info.parentSeq();
        State start = info.parentId() == null ? State.EMPTY : load(info.parentId(), info.parentSeq());
        List<StoredEvent> stored = new ArrayList<>();
        State next = stage(info.id(), start, base, source, newCommandId(), firstEvents, stored);
        store.create(info, stored);
        cache.put(info.id(), next);
        publish(info.id(), stored, next);
        return new Commit(stored, next);
    }

    /**
     * Runs one step: {@code decider} sees the current state and returns the events to append (none
     * for a no-op). Events the reducer refuses raise {@link InvalidEventException} and nothing is
     * written.
     */
    public Commit update(String sessionId, CheckpointSource source, String commandId, Decider decider) {
        Require.nonNull(decider, "decider");
        ReentrantLock lock = lockFor(sessionId);
        lock.lock();
        try {
            for (int attempt = 1; ; attempt++) {
                State s = current(sessionId);
                List<Event> events = decider.decide(s);
                if (events == null || events.isEmpty()) {
                    return new Commit(List.of(), s);
                }
                try {
                    return append(sessionId, s, source, commandId, events);
                } catch (VersionConflictException e) {
                    cache.remove(sessionId);
                    if (attempt >= MAX_ATTEMPTS) {
                        throw e;
                    }
                    LOG.debug("session {}: {}; deciding again", sessionId, e.getMessage());
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** {@link #handleToolResult(String, String, Event.ToolCallEnded, List, Map)} with no temp variables of a turn. */
    public ToolResultOutcome handleToolResult(String sessionId, String commandId, Event.ToolCallEnded result,
                                              List<VariableWrite> writes) {
        return handleToolResult(sessionId, commandId, result, writes, new HashMap<>());
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
    public ToolResultOutcome handleToolResult(String sessionId, String commandId, Event.ToolCallEnded result,
                                              List<VariableWrite> writes, Map<String, JsonNode> temp) {
        Require.nonNull(result, "result");
        String[] refusal = new String[1];
        VariableWrites.Plan[] plan = new VariableWrites.Plan[1];
        Commit c = update(sessionId, CheckpointSource.LOOP, commandId, s -> {
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
            plan[0] = VariableWrites.plan(writes, s.variables(), VariableWrites.sharedIn(store, () -> info(sessionId)), Map.copyOf(temp));
            return plan[0].recording(result);
        });
        if (c.isEmpty()) {
            LOG.warn("session {}: refused a tool result: {}", sessionId, refusal[0]);
            return new ToolResultOutcome.Refused(result.toolUseId(), refusal[0], c.state());
        }
        plan[0].applyTemp(temp);
        return new ToolResultOutcome.Accepted(c);
    }

    /** Marks a turn of this session as running in this process (so loading does not take it for a crashed one). */
    void turnStarted(String sessionId) {
        activeTurns.add(sessionId);
    }

    void turnEnded(String sessionId) {
        activeTurns.remove(sessionId);
    }

    /** Drops the session from memory; the next use reloads it from the store. */
    public void evict(String sessionId) {
        cache.remove(sessionId);
    }

    public int cachedSessions() {
        return cache.size();
    }

    public static String newCommandId() {
        return UUID.randomUUID().toString();
    }

    // ---- internals (callers hold the session's lock) -------------------------------------------------

    private State current(String sessionId) {
        State s = cache.get(sessionId);
        if (s == null) {
            s = load(sessionId, store.head(sessionId));
            cache.put(sessionId, s);
            s = recoverIfAbandoned(sessionId, s);
        }
        return s;
    }

    private State recoverIfAbandoned(String sessionId, State s) {
        if (s.isIdle() || activeTurns.contains(sessionId)) {
            return s;
        }
        List<Event> events = TurnEnding.closing(s, CRASH_REASON,
                new Event.TurnInterrupted("the process stopped during this turn; recovered when the session was next loaded"));
        LOG.warn("session {}: a turn was left running by a process that stopped; recording it as interrupted", sessionId);
        return append(sessionId, s, CheckpointSource.SYSTEM, newCommandId(), events).state();
    }

    private Commit append(String sessionId, State s, CheckpointSource source, String commandId, List<Event> events) {
        List<StoredEvent> stored = new ArrayList<>(events.size());
        State next = stage(sessionId, s, s.seq(), source, commandId, events, stored);
        List<ScopedWrite> writes = scopedWrites(sessionId, events);
        try {
            store.append(sessionId, s.seq(), stored, writes);
        } catch (RuntimeException e) {
            cache.remove(sessionId); // whatever happened, the next read goes to the store
            throw e;
        }
        cache.put(sessionId, next);
        if (next.seq() / snapshotEvery != s.seq() / snapshotEvery) {
            try {
                store.saveSnapshot(sessionId, next.snapshot());
            } catch (StorageException e) {
                LOG.warn("session {}: snapshot at seq {} not saved ({}); loading will replay more", sessionId, next.seq(), e.getMessage());
            }
        }
        publish(sessionId, stored, next);
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

    private List<ScopedWrite> scopedWrites(String sessionId, List<Event> events) {
        List<ScopedWrite> writes = new ArrayList<>();
        SessionInfo info = null;
        for (Event e : events) {
            if (e instanceof Event.VariablesChanged v && v.scope() != VariableScope.SESSION) {
                if (info == null) {
                    info = info(sessionId);
                }
                String key = v.scope() == VariableScope.USER ? ScopedWrite.userKey(info.tenant(), info.userId())
                        : ScopedWrite.appKey(info.tenant());
                writes.add(new ScopedWrite(v.scope(), key, v.set(), v.removed()));
            }
        }
        return writes;
    }

    /** Snapshot + transcript-only replay before it + full replay after it, up to {@code toSeq}. */
    private State load(String sessionId, long toSeq) {
        Optional<StateSnapshot> snap = Lineage.latestSnapshot(store, sessionId, toSeq);
        State s = State.EMPTY;
        long from = 1;
        if (snap.isPresent()) {
            State t = State.EMPTY;
            for (StoredEvent e : Lineage.readTranscript(store, sessionId, 1, snap.get().seq())) {
                t = Reducer.applyTranscriptOnly(t, e.event());
            }
            s = State.fromSnapshot(snap.get(), t.messages());
            from = snap.get().seq() + 1;
        }
        for (StoredEvent e : Lineage.read(store, sessionId, from, toSeq)) {
            s = Reducer.apply(s, e);
        }
        return s;
    }

    private void publish(String sessionId, List<StoredEvent> events, State state) {
        for (EventListener l : listeners) {
            try {
                l.onCommit(sessionId, events, state);
            } catch (RuntimeException e) {
                LOG.warn("session {}: a listener failed: {}", sessionId, e.toString());
            }
        }
    }

    private ReentrantLock lockFor(String sessionId) {
        return locks[Math.floorMod(sessionId.hashCode(), locks.length)];
    }
}
