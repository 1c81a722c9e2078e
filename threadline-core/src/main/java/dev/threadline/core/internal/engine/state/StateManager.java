package dev.threadline.core.internal.engine.state;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.internal.engine.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import dev.threadline.core.internal.engine.live.LeaseKeeper;
import dev.threadline.core.internal.engine.live.Listeners;
import dev.threadline.core.internal.engine.live.LiveRegistry;
import dev.threadline.core.internal.engine.live.LiveSession;
import dev.threadline.core.runtime.Commit;
import dev.threadline.core.runtime.Decider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SharedVariables;
import dev.threadline.core.store.Snapshots;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import dev.threadline.core.log.Logs;
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
public final class StateManager {
    private static final Logger LOG = Logs.get(StateManager.class);
    private static final int MAX_ATTEMPTS = 8;
    public static final String CRASH_REASON = "the process that ran this tool call stopped (crash, kill or a stall past its lease);"
            + " its outcome is unknown, so it was recorded as failed when another process took the session over";

    /** How often a snapshot is saved ({@code snapshotEvery} events) and how many sessions stay cached. */
    public record Tuning(int snapshotEvery, int cacheCapacity) {}

    private final JournalReader reads;
    private final Journal journal;
    private final SessionIndex index;
    private final Snapshots snapshots;
    private final SharedVariables shared;
    private final Clock clock;
    private final int snapshotEvery;
    private final StateCache cache;
    private final LeaseKeeper leases;
    private final LiveRegistry live;
    private final Listeners listeners;
    private final Tracing tracing;

    /**
     * Reads through {@code reads}; writes through the store's roles: the {@code journal} it appends to, the
     * {@code index} it creates sessions in, the {@code snapshots} it saves, the {@code shared} variables
     * skills' writes are planned against.
     */
    public StateManager(JournalReader reads, Journal journal, SessionIndex index, Snapshots snapshots, SharedVariables shared,
                        LeaseKeeper leases, LiveRegistry live, Listeners listeners, Clock clock, Tuning tuning, Tracing tracing) {
        this.reads = Require.nonNull(reads, "reads");
        this.journal = journal;
        this.index = index;
        this.snapshots = snapshots;
        this.shared = shared;
        this.clock = Require.nonNull(clock, "clock");
        this.snapshotEvery = tuning.snapshotEvery();
        this.cache = new StateCache(tuning.cacheCapacity());
        this.leases = leases;
        this.live = live;
        this.listeners = listeners;
        this.tracing = Require.nonNull(tracing, "tracing");
    }

    /** The session's description. */
    public SessionInfo info(SessionKey key) {
        return reads.info(key);
    }

    /**
     * The config the session runs with now: its description's, with the model of its latest model edit
     * ({@code SessionConfig.withModelChange}).
     */
    public SessionConfig config(SessionKey key) {
        return info(key).config().withModelChange(get(key).modelChange());
    }

    /** The current state. Never writes; catches up from the store's head unless this process holds the lease. */
    public State get(SessionKey key) {
        State cached = cache.get(key);
        if (cached != null && leases.trusts(key)) {
            return cached;
        }
       return refresh(key);
    }

    /** Whether the session's state is cached (it is not after a failed append, or once evicted). */
    public boolean isCached(SessionKey key) {
        return cache.get(key) != null;
    }

    /** Reads the store's head and brings the cached state up to it (a tail read, or a load when nothing is cached). */
    public State refresh(SessionKey key) {
        long head = reads.head(key);
        State cached = cache.get(key);
        if (cached != null && cached.seq() == head) {
            return cached;
        }
        State s;
        if (cached != null && cached.seq() < head) {
            s = cached;
            for (StoredEvent e : reads.read(key, cached.seq() + 1, head)) {
                s = Reducer.apply(s, e);
            }
        } else {
            s = load(key, head);
        }
        cache.putIfNewer(key, s);
        return s;
    }

    /** The state as of journal position {@code seq} (read-only; nothing is cached). */
    public State stateAt(SessionKey key, long seq) {
        long head = reads.head(key);
        Require.argument(seq >= 1 && seq <= head, "seq", "session '" + key.id() + "' has seq 1.." + head + ", not " + seq);
        return load(key, seq);
    }

    /**
     * Creates a session with its first events; {@code check} sees the state they produce and may refuse
     * it (throw) before anything is written.
     */
    public Commit create(SessionInfo info, CheckpointSource source, Cmd cmd, List<Event> firstEvents, Consumer<State> check) {
        SessionKey key = SessionKey.of(info);
        long base = info.parentId() == null ? 0 : info.parentSeq();
        State start = info.parentId() == null ? State.EMPTY : load(key.sibling(info.parentId()), info.parentSeq());
        List<StoredEvent> stored = new ArrayList<>();
        State next = stage(info.id(), start, base, source, cmd.id(), firstEvents, stored);
        check.accept(next);
        Span span = tracing.start("threadline.session.create", key);
        span.setAttribute(Tracing.EVENTS, (long) stored.size());
        try (Scope scope = tracing.enter(span)) {
            index.create(info, stored, cmd.record());
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
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
    public Commit update(SessionKey key, CheckpointSource source, Cmd cmd, Decider decider) {
        Require.nonNull(decider, "decider");
        LiveSession entry = live.lockWrites(key);
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
            live.unlockWrites(entry);
        }
    }

    /** {@link #handleToolResult(SessionKey, Cmd, Event.ToolCallEnded, List, Map)} with no temp variables of a turn. */
    public ToolResultOutcome handleToolResult(SessionKey key, Cmd cmd, Event.ToolCallEnded result, List<VariableWrite> writes) {
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
    public ToolResultOutcome handleToolResult(SessionKey key, Cmd cmd, Event.ToolCallEnded result, List<VariableWrite> writes,
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
            plan[0] = VariableWrites.plan(writes, s.variables(), VariableWrites.sharedIn(shared, () -> info(key)), Map.copyOf(temp));
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
    public void evict(SessionKey key) {
        cache.remove(key);
    }

    public int cachedSessions() {
        return cache.size();
    }

    /**
     * A fresh command id: a version 7 UUID (RFC 9562) in canonical text, the Unix time in milliseconds and
     * then 74 random bits. An id must be unique, not unguessable, so the bits come from this thread's
     * {@link ThreadLocalRandom}: {@link UUID#randomUUID} reads the shared {@code /dev/urandom} under a lock
     * at every command (about 2 µs of a step's CPU in {@code threadline bench step-parts}). Time order
     * also keeps a store's index of command ids filling at its end.
     */
    public static String newCommandId() {
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
        Span span = tracing.start("threadline.journal.append", key);
        if (span.isRecording()) {
            span.setAttribute(Tracing.SEQ, s.seq() + 1);
            span.setAttribute(Tracing.EVENTS, (long) stored.size());
            span.setAttribute(Tracing.SOURCE, source.name().toLowerCase(java.util.Locale.ROOT));
        }
        try {
            CrashPoint.STEP_BEFORE_APPEND.reach();
            journal.append(new AppendRequest(key, s.seq(), leases.epoch(key), stored, writes, cmd.recordAt(key, s.seq() + 1)));
        } catch (LeaseLostException e) {
            Tracing.failed(span, e);
            cache.remove(key);
            leases.lost(key, e);
            throw e;
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            cache.remove(key); // whatever happened, the next read goes to the store
            throw e;
        } finally {
            span.end();
        }
        CrashPoint.STEP_AFTER_APPEND.reach();
        cmd.recorded();
        cache.put(key, next);
        CrashPoint.STEP_BEFORE_REPLY.reach();
        if (next.seq() / snapshotEvery != s.seq() / snapshotEvery) {
            Span snap = tracing.start("threadline.snapshot.save", key);
            snap.setAttribute(Tracing.SEQ, next.seq());
            try {
                CrashPoint.SNAPSHOT_WRITE.reach();
                snapshots.saveSnapshot(key, next.snapshot());
            } catch (StorageException e) {
                Tracing.failed(snap, e);
                LOG.warn("session {}: snapshot at seq {} not saved ({}); loading will replay more", key, next.seq(), e.getMessage());
            } finally {
                snap.end();
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
        return VariableWrites.stored(events, () -> info(key));
    }

    /** Snapshot + transcript-only replay before it + full replay after it, up to {@code toSeq}. */
    private State load(SessionKey key, long toSeq) {
        Optional<dev.threadline.core.store.HistoryBase> base = reads.base(key);
        State s = State.EMPTY;
        long from = 1;
        if (base.isPresent()) { // a pruned history starts from its base (ADR 0045)
            if (toSeq < base.get().seq()) {
                throw base.get().pruned(key.id(), toSeq);
            }
            s = base.get().state();
            from = s.seq() + 1;
        }
        Optional<StateSnapshot> snap = reads.latestSnapshot(key, toSeq).filter(x -> x.seq() >= s0(base));
        if (snap.isPresent()) {
            State t = s;
            for (Event e : reads.transcriptEvents(key, from, snap.get().seq())) {
                t = Reducer.applyTranscriptOnly(t, e);
            }
            s = State.fromSnapshot(snap.get(), t.messages());
            from = snap.get().seq() + 1;
        }
        for (StoredEvent e : reads.read(key, from, toSeq)) {
            s = Reducer.apply(s, e);
        }
        return s;
    }

    private static long s0(Optional<dev.threadline.core.store.HistoryBase> base) {
        return base.map(b -> b.seq() + 1).orElse(0L);
    }

    /** Hands a committed step to the listeners; they hear it later, on a thread of their own, in commit order. */
    private void publish(SessionKey key, List<StoredEvent> events, State state) {
        listeners.committed(key, events, state);
    }
}
