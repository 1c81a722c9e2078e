package dev.threadline.core.internal.engine;

import dev.threadline.core.internal.engine.live.LeaseKeeper;
import dev.threadline.core.internal.engine.loop.AgentLoop;
import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.store.Leases;
import java.time.Clock;
import dev.threadline.core.internal.engine.live.LeaseOwner;
import dev.threadline.core.internal.engine.loop.Suspension;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.error.SessionBusyException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.store.Lineage;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.model.Message;
import java.util.List;
import java.util.Optional;
import dev.threadline.core.log.Logs;
import org.slf4j.Logger;

/**
 * What a new message does when it meets a running turn (see {@link DoubleTexting}). Before the
 * message is queued, the running turn is found: one this process runs, or one another process runs
 * (the state is running and a live lease of another owner holds it). {@code reject} refuses the
 * message; {@code interrupt} and {@code rollback} interrupt the turn (here directly, elsewhere through
 * an interrupt request on the lease) and queue the message; {@code rollback}'s command then sets the
 * turn aside on a side branch and continues the session from the state before it. Thread-safe.
 */
public final class DoubleTexts {
    private static final Logger LOG = Logs.get(DoubleTexts.class);

    /** The running turn a message met: where its user message is, and who runs it. */
    public record Busy(long startSeq, String text, String where, Lease lease) {
        String describe() {
            String shown = text.length() > 60 ? text.substring(0, 59) + "…" : text;
            return "the turn for '" + shown + "' (started at seq " + startSeq + ", running " + where + ")";
        }
    }

    private final StateManager states;
    private final AgentLoop loop;
    private final Branches branches;
    private final JournalReader reads;
    private final Leases leases;
    private final LeaseKeeper keeper;
    private final Clock clock;

    /** {@code leases}: the store's role, to see who runs a turn elsewhere and to ask it to stop. */
    public DoubleTexts(StateManager states, AgentLoop loop, Branches branches, JournalReader reads, Leases leases, LeaseKeeper keeper,
                       Clock clock) {
        this.states = states;
        this.loop = loop;
        this.branches = branches;
        this.reads = reads;
        this.leases = leases;
        this.keeper = keeper;
        this.clock = clock;
    }

    /**
     * Applies the strategy before the message is queued and returns the command body to queue.
     *
     * @throws SessionBusyException for {@code reject} when a turn runs
     */
    public CommandGate.Body<TurnResult> prepare(SessionKey key, String text, DoubleTexting strategy) {
        Optional<Busy> busy = strategy == DoubleTexting.ENQUEUE ? Optional.empty() : busy(key);
        if (busy.isEmpty()) {
            return c -> loop.turn(key, text, c);
        }
        Busy b = busy.get();
        switch (strategy) {
            case REJECT -> throw new SessionBusyException(key.id(), b.describe());
            case INTERRUPT, ROLLBACK -> interrupt(key, b, "interrupted by a new message (double texting: " + strategy.wireName() + ")");
            case STEER -> {
                return steer(key, text, b);
            }
            case ENQUEUE -> { }
        }
        return strategy == DoubleTexting.ROLLBACK ? c -> rollbackThenTurn(key, b, text, c) : c -> loop.turn(key, text, c);
    }

    /** The turn running now, here or in another process, or empty. A pure read. */
    public Optional<Busy> busy(SessionKey key) {
        boolean here = loop.runs(key);
        State s = states.get(key);
        Lease lease = null;
        if (!here) {
            if (s.status() != SessionStatus.RUNNING) {
                return Optional.empty();
            }
            lease = leases.lease(key).orElse(null);
            if (lease == null || lease.expiredAt(clock.instant()) || lease.owner().equals(keeper.owner())) {
                return Optional.empty(); // left running by a process that is gone: the next command closes it
            }
        }
        Optional<UserMessage> start = lastUserMessage(key, s.seq());
        return Optional.of(new Busy(start.map(UserMessage::seq).orElse(s.seq()), start.map(UserMessage::text).orElse(""),
                here ? "in this process" : "in " + LeaseOwner.describe(lease.owner()), lease));
    }

    private void interrupt(SessionKey key, Busy b, String reason) {
        if (b.lease() == null) {
            loop.interrupt(key, reason);
        } else if (!leases.requestInterrupt(key, b.lease().epoch(), reason)) {
            LOG.warn("session {}: this store cannot carry an interrupt to {}; the new message waits for the turn to end",
                    key, LeaseOwner.describe(b.lease().owner()));
        }
    }

    /**
     * Steers {@code text} into the turn this process runs: journalled now (its own step, beside the turn's, under the
     * session's write lock), delivered by the loop before the turn's next model call. The command queued behind the
     * turn then answers with the turn that took the message, or, when the turn ended before its next model call,
     * runs the turn the message starts. A turn another process runs, or one that ended before the message was
     * journalled, gets the message as an ordinary next turn.
     */
    private CommandGate.Body<TurnResult> steer(SessionKey key, String text, Busy b) {
        if (b.lease() != null) {
            LOG.debug("session {}: the turn runs in {}; the steered message waits for it to end", key, b.where());
            return c -> loop.turn(key, text, c);
        }
        Message message = Message.user(text);
        long at;
        try {
            Cmd own = Cmd.of(CommandOptions.NONE, "steer", text);
            at = states.update(key, CheckpointSource.INPUT, own, st -> st.status() == SessionStatus.RUNNING
                    ? List.of(new Event.MessageSteered(message)) : List.of()).state().seq();
        } catch (RuntimeException e) { // the turn ended and let the lease go meanwhile: an ordinary turn
            LOG.debug("session {}: steering found no running turn ({}); the message runs as the next turn", key, e.toString());
            return c -> loop.turn(key, text, c);
        }
        return c -> {
            State now = states.get(key);
            if (now.steered().isEmpty()) {
                boolean steered = reads.read(key, Math.max(1, at), at).stream().anyMatch(e -> e.event() instanceof Event.MessageSteered);
                return steered ? dev.threadline.core.internal.engine.TurnReplay.of(key.id(), reads.read(key, at, reads.head(key)))
                        : loop.turn(key, text, c); // nothing was journalled for it: the turn had ended
            }
            return loop.steered(key, c);
        };
    }

    /**
     * Runs once the busy turn has ended (the command holds the lease): a side branch keeps everything
     * from that turn on, the session returns to the state before the turn, then the message runs.
     */
    private TurnResult rollbackThenTurn(SessionKey key, Busy b, String text, Cmd cmd) {
        State now = states.get(key);
        if (now.isSuspended()) { // the turn stopped for a person meanwhile: close it like a new message would
            states.update(key, CheckpointSource.INPUT, cmd, Suspension::superseding);
        }
        long toSeq = b.startSeq() - 1;
        State before = states.stateAt(key, toSeq);
        if (!before.isIdle()) {
            LOG.warn("session {}: the state before seq {} is {}, not idle; the message runs without a rollback", key,
                    b.startSeq(), before.status().wireName());
            return loop.turn(key, text, cmd);
        }
        long head = states.get(key).seq();
        String side = branches.branch(key, head, null, "rollback", ".rb", CommandOptions.NONE).id();
        List<SideEffect> effects = SideEffects.after(reads, key, toSeq); // the caller chose to go back: named, not refused
        String reason = "a new message rolled back " + b.describe() + (effects.isEmpty() ? ""
                : "; side effects it did not undo: " + String.join("; ", effects.stream().map(SideEffect::describe).toList()));
        states.update(key, CheckpointSource.INPUT, cmd, st -> List.of(new Event.TurnRolledBack(toSeq, side,
                before.messages().size(), before.variables(), before.contextStart(), before.compaction(), reason)));
        return loop.turn(key, text, cmd);
    }

    /** Where a user message is journalled, and its text. */
    private record UserMessage(long seq, String text) {}

    private Optional<UserMessage> lastUserMessage(SessionKey key, long head) {
        for (long to = head; to >= 1; to -= 200) {
            List<StoredEvent> page = reads.read(key, Math.max(1, to - 199), to);
            for (int i = page.size() - 1; i >= 0; i--) {
                if (page.get(i).event() instanceof Event.UserMessageReceived u) {
                    return Optional.of(new UserMessage(page.get(i).seq(), u.message().text()));
                }
            }
        }
        return Optional.empty();
    }
}
