package dev.threadline.core.internal.engine;

import dev.threadline.core.internal.engine.live.LeaseKeeper;
import dev.threadline.core.internal.engine.live.LeaseOwner;
import dev.threadline.core.internal.engine.live.SessionRunner;
import dev.threadline.core.internal.engine.live.LiveRegistry;
import dev.threadline.core.store.CommandLog;
import dev.threadline.core.internal.engine.loop.Suspension;
import dev.threadline.core.internal.engine.loop.TurnEnding;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.error.CommandConflictException;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.state.State;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import dev.threadline.core.log.Logs;
import org.slf4j.Logger;

/**
 * Where every write command of a session passes: the session's mailbox (one command at a time in this
 * process), then its lease (one process at a time; on a take-over, an acquisition after another owner
 * may have held it, the cached state catches up and a turn the previous holder left running is closed;
 * re-taking a lease this runtime released itself, with nobody else's in between, is no take-over: a turn
 * it drives step by step stays open), then the command log (a caller's command id
 * seen before returns the first outcome, a different command under that id is refused). Thread-safe.
 */
public final class CommandGate {
    private static final Logger LOG = Logs.get(CommandGate.class);
    /** Why a tool call left open by a store failure is recorded as failed. */
    public static final String STORE_FAILURE_REASON = "a store failure ended the turn while this tool call ran; its outcome is"
            + " unknown, so it was recorded as failed";

    /** A command's work, given its {@link Cmd}. */
    public interface Body<T> {
        T run(Cmd cmd);
    }

    private final SessionRunner runner;
    private final LeaseKeeper leases;
    private final StateManager states;
    private final CommandLog log;
    private final LiveRegistry live;

    /** Commands queue in {@code runner}, hold a lease of {@code leases}, and are recognised by their record in the {@code log}. */
    public CommandGate(SessionRunner runner, LeaseKeeper leases, StateManager states, CommandLog log, LiveRegistry live) {
        this.runner = runner;
        this.leases = leases;
        this.states = states;
        this.log = log;
        this.live = live;
    }

    /**
     * The first record of {@code cmd}'s caller id in the session's command log, checked to name the same
     * command (else a {@link CommandConflictException}); empty for a command without a caller's id, or one
     * not seen before. The one place the command log is read.
     */
    public Optional<CommandRecord> seen(SessionKey key, Cmd cmd) {
        if (!cmd.hasCallerId()) {
            return Optional.empty();
        }
        return log.command(key, cmd.id()).map(first -> checked(key, first, cmd));
    }

    /** Whether {@code cmd}'s caller id is in the session's command log already (whatever command it named). */
    public boolean recorded(SessionKey key, Cmd cmd) {
        return cmd.hasCallerId() && log.command(key, cmd.id()).isPresent();
    }

    /** Runs the command in the session's order and waits for it (on this thread when the session is idle here). */
    public <T> T call(SessionKey key, Cmd cmd, Body<T> body, Function<CommandRecord, T> replay) {
        try {
            return runner.call(key, task(key, cmd, body, replay));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThreadlineException("interrupted while waiting for the session's command", e);
        } catch (Exception e) {
            throw new ThreadlineException(e.getMessage(), e);
        }
    }

    /** Queues the command behind the session's earlier ones. */
    public <T> CompletableFuture<T> submit(SessionKey key, Cmd cmd, Body<T> body, Function<CommandRecord, T> replay) {
        return runner.submit(key, task(key, cmd, body, replay));
    }

    private <T> Callable<T> task(SessionKey key, Cmd cmd, Body<T> body, Function<CommandRecord, T> replay) {
        return () -> {
            LeaseKeeper.Entry entry = leases.enter(key);
            try {
                if (entry.fresh()) {
                    takeOver(key, entry.previous());
                } else if (!states.isCached(key)) {
                    recoverOwn(key);
                }
                Optional<CommandRecord> first = seen(key, cmd);
                if (first.isPresent()) {
                    return replay.apply(first.get());
                }
                try {
                    return body.run(cmd);
                } catch (DuplicateCommandException d) {
                    return replay.apply(checked(key, d.existing(), cmd));
                }
            } finally {
                leases.exit(key);
            }
        };
    }

    /**
     * With the lease kept but nothing cached (a store failure midway through this process's last command
     * of the session drops its cached state, since the failed write may or may not have been applied):
     * catch up with the store, and close a turn that failure left open, as a take-over would; otherwise
     * every later turn of the session would be refused behind its unanswered tool calls until the lease
     * passed to another process.
     */
    private void recoverOwn(SessionKey key) {
        State s = states.refresh(key);
        if (s.isIdle() || live.runs(key)) {
            return;
        }
        LOG.warn("session {}: the turn left open by a store failure in this process is closed as interrupted", key);
        states.update(key, CheckpointSource.SYSTEM, Cmd.internal(), st -> TurnEnding.closing(st, STORE_FAILURE_REASON,
                new Event.TurnInterrupted("a store failure ended this turn midway; closed by the same process's next command")));
    }

    /** The first record of a repeated command id, if it names the same command; else a conflict. */
    public static CommandRecord checked(SessionKey key, CommandRecord first, Cmd cmd) {
        if (!first.fingerprint().equals(cmd.fingerprint())) {
            String firstKind = Cmd.kindOf(first.fingerprint());
            String thisKind = Cmd.kindOf(cmd.fingerprint());
            throw new CommandConflictException(key.id(), cmd.id(), "a " + firstKind,
                    firstKind.equals(thisKind) ? "a " + thisKind + " with other arguments" : "a " + thisKind);
        }
        return first;
    }

    /**
     * After acquiring the lease afresh: catch up with what others wrote, and close a turn the previous
     * holder left running (it stopped, or stalled past its lease; its next append is refused by fencing).
     */
    private void takeOver(SessionKey key, Lease previous) {
        State s = states.refresh(key);
        if (s.isIdle() || s.isSuspended() || live.runs(key)) {
            return; // at rest: nothing runs an idle session or a turn suspended for a person
        }
        LOG.warn("session {}: the turn left running by {} is closed as interrupted (its lease {})", key,
                previous == null ? "a process that held no lease" : LeaseOwner.describe(previous.owner()),
                previous == null ? "is gone" : "expired at " + previous.expiresAt());
        states.update(key, CheckpointSource.SYSTEM, Cmd.internal(), CommandGate::closeAbandoned);
    }

    /**
     * The events that close a turn its process abandoned: calls that were running fail (their outcome
     * is unknown); if calls wait for a person the turn is suspended for them (the requests survive the
     * crash), else it ends as interrupted.
     */
    public static java.util.List<Event> closeAbandoned(State st) {
        if (st.awaiting().isEmpty()) {
            return TurnEnding.closing(st, StateManager.CRASH_REASON, new Event.TurnInterrupted("the process running this turn"
                    + " stopped or stalled past its lease; closed by the process that took the session over"));
        }
        java.util.List<Event> events = new java.util.ArrayList<>();
        State next = st;
        for (dev.threadline.core.state.PendingToolCall p : st.pending()) {
            if (!p.answered() && !p.waitsForAPerson()) {
                Event e = new Event.ToolCallFailed(p.toolUseId(), StateManager.CRASH_REASON);
                events.add(e);
                next = dev.threadline.core.internal.state.Reducer.apply(next, e);
            }
        }
        events.add(Suspension.of(next));
        return events;
    }
}
