package dev.threadline.core.internal.engine;

import dev.threadline.core.error.LeaseHeldException;
import dev.threadline.core.error.LegalHoldException;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.runtime.LegalHold;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.PruneResult;
import dev.threadline.core.runtime.PruneSweep;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.State;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.HistoryPruning;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * History pruning (ADR 0045): folds the prefix of a session's journal that a {@link PrunePolicy} lets go
 * into a {@link HistoryBase} and has the store remove the events, snapshots and segments it stands for.
 * The prune point is a checkpoint (the last seq of a step), never before a branch point of one of the
 * session's branches (a fork keeps the history it needs: the prune stops there and says so), and never
 * on a session a legal hold covers (refused, nothing changed). Each prune runs as a command of the
 * session, under its lease, after the commands queued on it here. Thread-safe (stateless between calls).
 */
public final class Pruning {
    private static final int PAGE = 512;

    private final HistoryPruning store;
    private final SessionIndex index;
    private final JournalReader reads;
    private final StateManager states;
    private final CommandGate gate;
    private final Clock clock;
    private final Supplier<List<LegalHold>> holds;

    /** Prunes through the store's {@code store} role, reading with {@code reads}; {@code holds} are read once per call. */
    public Pruning(HistoryPruning store, SessionIndex index, JournalReader reads, StateManager states, CommandGate gate, Clock clock,
                   Supplier<List<LegalHold>> holds) {
        this.store = store;
        this.index = index;
        this.reads = reads;
        this.states = states;
        this.gate = gate;
        this.clock = clock;
        this.holds = holds;
    }

    /**
     * Prunes one session under {@code given}, or (null) under its own policy ({@link PrunePolicy#METADATA_KEY}).
     *
     * @throws dev.threadline.core.error.InvalidInputException when the store does not prune, or no policy is given or the session's is malformed
     * @throws SessionNotFoundException when the session does not exist
     * @throws LegalHoldException       when a hold covers the session
     * @throws LeaseHeldException       when another process runs the session past the lease wait
     */
    public PruneResult prune(SessionKey key, PrunePolicy given) {
        Require.nonNull(key, "session");
        if (!store.prunesHistory()) {
            store.prune(key, null); // the backend's own refusal, naming it
        }
        SessionInfo info = reads.info(key);
        PrunePolicy policy = given != null ? given : own(info);
        if (policy == null) {
            throw new dev.threadline.core.error.InvalidInputException("policy", "session '" + key.id() + "' has no policy of its own"
                    + " (metadata '" + PrunePolicy.METADATA_KEY + "'); give one");
        }
        final PrunePolicy chosen = policy;
        for (LegalHold h : holds.get()) {
            if (h.covers(info.tenant(), info.userId(), info.id())) {
                throw new LegalHoldException("pruning session '" + key.id() + "' of tenant '" + key.tenant() + "'", h.describe());
            }
        }
        return gate.call(key, Cmd.internal(), cmd -> once(key, info, chosen), first -> null);
    }

    /** The session's own policy ({@link PrunePolicy#METADATA_KEY}), or null when it has none. */
    private static PrunePolicy own(SessionInfo info) {
        String v = info.metadata().get(PrunePolicy.METADATA_KEY);
        return v == null ? null : PrunePolicy.parse(v);
    }

    /**
     * Prunes every session of {@code tenant} under its own policy ({@link PrunePolicy#METADATA_KEY}) or else
     * {@code tenantDefault} (null: only sessions with their own), a page at a time; a held session is left as it
     * is and one another process runs is tried again next time.
     */
    public PruneSweep pruneTenant(String tenant, PrunePolicy tenantDefault) {
        SessionInfo.checkId(tenant, "tenant");
        List<LegalHold> all = holds.get();
        int pruned = 0, unchanged = 0, held = 0, running = 0;
        long removed = 0;
        String cursor = null;
        do {
            Page<SessionSummary> page = index.list(SessionQuery.tenant(tenant).at(cursor));
            for (SessionSummary s : page.items()) {
                SessionKey key = new SessionKey(tenant, s.info().id());
                PrunePolicy policy;
                try {
                    PrunePolicy own = own(s.info());
                    policy = own != null ? own : tenantDefault;
                } catch (dev.threadline.core.error.InvalidInputException malformed) {
                    policy = null; // a session whose own policy is malformed is never pruned more than it asked
                }
                if (policy == null) {
                    unchanged++;
                    continue;
                }
                final PrunePolicy chosen = policy;
                if (all.stream().anyMatch(h -> h.covers(tenant, s.info().userId(), s.info().id()))) {
                    held++;
                    continue;
                }
                try {
                    Plan p = plan(key, s.info(), chosen); // read only: a session with nothing to prune costs no lease
                    if (p.target() <= p.floor()) {
                        unchanged++;
                        continue;
                    }
                    PruneResult r = gate.call(key, Cmd.internal(), cmd -> once(key, reads.info(key), chosen), first -> null);
                    if (r.pruned()) {
                        pruned++;
                        removed += r.eventsRemoved();
                    } else {
                        unchanged++;
                    }
                } catch (LeaseHeldException busy) {
                    running++;
                } catch (SessionNotFoundException gone) {
                    // deleted meanwhile
                }
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return new PruneSweep(pruned, unchanged, held, running, removed);
    }

    /** Where a prune would go, read only: the base after it, the one before, and what limited it. */
    private record Plan(long target, long floor, long current, String limitedBy) {}

    /** Finds the prune point, folds the state there into a base and has the store keep it; under the session's lease. */
    private PruneResult once(SessionKey key, SessionInfo info, PrunePolicy policy) {
        Plan p = plan(key, info, policy);
        if (p.target() <= p.floor()) {
            return new PruneResult(key.tenant(), key.id(), policy.describe(), p.current(), 0, p.limitedBy());
        }
        State at = states.stateAt(key, p.target());
        store.prune(key, HistoryBase.of(at, policy.describe(), clock.instant()));
        states.evict(key); // the next use loads from the base, as every other process will
        return new PruneResult(key.tenant(), key.id(), policy.describe(), p.target(), p.target() - p.floor(), p.limitedBy());
    }

    private Plan plan(SessionKey key, SessionInfo info, PrunePolicy policy) {
        long head = reads.head(key);
        long current = reads.base(key).filter(b -> info.parentId() == null || b.seq() > info.parentSeq()).map(HistoryBase::seq).orElse(0L);
        long floor = Math.max(current, info.parentId() == null ? 0 : info.parentSeq()); // own events start after it
        long target = point(key, policy, floor, head);
        String limitedBy = target <= floor ? "the session has no more history than the policy keeps" : null;
        String lowest = null;
        long lowestPoint = Long.MAX_VALUE;
        for (String b : index.branches(key)) {
            long at = reads.info(key.sibling(b)).parentSeq();
            if (at < lowestPoint) {
                lowestPoint = at;
                lowest = b;
            }
        }
        if (lowest != null && lowestPoint < target) {
            target = lowestPoint;
            limitedBy = "branch '" + lowest + "' starts at seq " + lowestPoint + " and keeps the history it needs";
        }
        return new Plan(target, floor, current, limitedBy);
    }

    /**
     * The last seq the policy lets go: the end of the step before the latest {@code keepCheckpoints} steps, or
     * of the newest step wholly older than {@code keepFor}; {@code floor} or less when nothing after {@code floor} goes.
     */
    private long point(SessionKey key, PrunePolicy policy, long floor, long head) {
        Instant cutoff = policy.keepFor() == null ? null : clock.instant().minus(policy.keepFor());
        Set<Long> kept = new HashSet<>();
        for (long to = head; to > floor; to -= PAGE) {
            List<StoredEvent> page = reads.read(key, Math.max(floor + 1, to - PAGE + 1), to);
            for (int i = page.size() - 1; i >= 0; i--) {
                StoredEvent e = page.get(i);
                if (kept.contains(e.step())) {
                    continue;
                }
                boolean keep = cutoff == null ? kept.size() < policy.keepCheckpoints() : !e.time().isBefore(cutoff);
                if (!keep) {
                    return e.seq(); // the last event of a step the policy lets go
                }
                kept.add(e.step());
            }
        }
        return floor;
    }
}
