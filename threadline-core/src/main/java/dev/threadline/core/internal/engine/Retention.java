package dev.threadline.core.internal.engine;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.internal.engine.live.LeaseKeeper;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.runtime.LegalHold;
import dev.threadline.core.runtime.SweepResult;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Retention: one pass deletes up to a limit of the sessions whose expiry has passed (by the runtime's
 * clock), the oldest expiry first. Safe from any number of processes at once and beside running turns:
 * before it deletes a session the pass takes the session's lease under an owner of its own, so a
 * session whose lease is held and not expired (a turn may be running) is skipped, and no turn starts on
 * one while it is being deleted. A session that branches depend on is deleted only once they are gone:
 * expired branches among the pass's sessions are deleted first (children before parents); one with a
 * live branch is kept, and so is one a legal hold covers. One pass touches at most {@code limit} sessions, each with a few store calls.
 * Thread-safe (stateless between passes).
 */
public final class Retention {
    /** How long the pass holds a session's lease while it deletes it (the delete takes the lease with it). */
    static final Duration HOLD = Duration.ofSeconds(30);

    private enum Outcome { REMOVED, RUNNING, BRANCHES, HELD, GONE }

    private final SessionIndex index;
    private final Leases leases;
    private final Clock clock;
    private final StateManager states;
    private final LeaseKeeper keeper;
    private final Supplier<List<LegalHold>> holds;

    /**
     * A session the pass deletes is also forgotten by the runtime's {@code states} cache and lease {@code
     * keeper}; one a hold of {@code holds} (read once per pass) covers is kept.
     */
    public Retention(SessionIndex index, Leases leases, Clock clock, StateManager states, LeaseKeeper keeper,
                     Supplier<List<LegalHold>> holds) {
        this.index = index;
        this.leases = leases;
        this.clock = clock;
        this.states = states;
        this.keeper = keeper;
        this.holds = holds;
    }

    /**
     * One pass over at most {@code limit} expired sessions.
     *
     * @throws InvalidInputException when {@code limit} is not 1 to 1000
     */
    public SweepResult sweep(int limit) {
        List<SessionKey> expired = index.expired(clock.instant(), limit);
        Set<SessionKey> pass = new LinkedHashSet<>(expired);
        Map<SessionKey, Outcome> done = new HashMap<>();
        if (!expired.isEmpty()) {
            markHeld(expired, done);
        }
        String owner = "threadline-sweeper/" + UUID.randomUUID();
        for (SessionKey key : expired) {
            remove(key, pass, done, owner);
        }
        int gone = 0, running = 0, branches = 0, held = 0;
        for (Outcome o : done.values()) {
            switch (o) {
                case REMOVED -> gone++;
                case RUNNING -> running++;
                case BRANCHES -> branches++;
                case HELD -> held++;
                case GONE -> { } // another process removed it meanwhile
            }
        }
        return new SweepResult(gone, running, branches, held);
    }

    /** Marks the expired sessions a legal hold covers: the pass keeps them (and so the sessions they branched from). */
    private void markHeld(List<SessionKey> expired, Map<SessionKey, Outcome> done) {
        List<LegalHold> all = holds.get();
        if (all.isEmpty()) {
            return;
        }
        for (SessionKey key : expired) {
            if (all.stream().anyMatch(h -> h.subject().tenant().equals(key.tenant()))) {
                index.session(key).ifPresent(i -> {
                    if (all.stream().anyMatch(h -> h.covers(i.tenant(), i.userId(), i.id()))) {
                        done.put(key, Outcome.HELD);
                    }
                });
            }
        }
    }

    /** Deletes {@code key} once its expired branches in this pass are deleted; each session is tried once. */
    private Outcome remove(SessionKey key, Set<SessionKey> pass, Map<SessionKey, Outcome> done, String owner) {
        Outcome known = done.get(key);
        if (known != null) {
            return known;
        }
        Outcome o;
        try {
            o = removeOnce(key, pass, done, owner);
        } catch (SessionNotFoundException e) {
            o = Outcome.GONE;
        }
        done.put(key, o);
        return o;
    }

    private Outcome removeOnce(SessionKey key, Set<SessionKey> pass, Map<SessionKey, Outcome> done, String owner) {
        if (!(leases.acquire(key, owner, HOLD, null) instanceof LeaseResult.Acquired acquired)) {
            return Outcome.RUNNING;
        }
        Lease held = acquired.lease();
        boolean deleted = false;
        try {
            done.put(key, Outcome.BRANCHES); // a cycle cannot happen, but never recurse into the session itself
            for (String child : index.branches(key)) {
                SessionKey c = key.sibling(child);
                if (pass.contains(c)) {
                    remove(c, pass, done, owner);
                }
            }
            if (!index.branches(key).isEmpty()) {
                return Outcome.BRANCHES; // a held branch counts as held, its parent as kept for branches
            }
            index.delete(key);
            deleted = true;
            CrashPoint.SWEEP_MID_BATCH.reach();
            states.evict(key);
            keeper.forget(key);
            return Outcome.REMOVED;
        } catch (InvalidInputException e) {
            return Outcome.BRANCHES; // a branch was created meanwhile
        } finally {
            if (!deleted) {
                releaseQuietly(held);
            }
        }
    }

    private void releaseQuietly(Lease held) {
        try {
            leases.release(held);
        } catch (SessionNotFoundException e) {
            // deleted by another process meanwhile: its lease went with it
        }
    }
}
