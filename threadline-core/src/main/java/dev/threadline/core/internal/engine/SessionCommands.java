package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.engine.loop.AgentLoop;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Commit;
import dev.threadline.core.runtime.CompactionResult;
import dev.threadline.core.runtime.Decider;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.SessionKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The commands of a session, each built once as a {@link Command} (its {@link Cmd}, its body, how a
 * repeat of its command id answers) and run through the {@link CommandGate}: blocking on the caller's
 * thread ({@link #call}) or queued ({@link #queue}). Bad input is refused while the command is built,
 * before anything queues. Thread-safe (stateless over its parts).
 */
public final class SessionCommands {
    private final CommandGate gate;
    private final StateManager states;
    private final AgentLoop loop;
    private final HumanCommands humans;
    private final DoubleTexts doubleTexts;
    private final Compensations compensations;
    private final Branches branches;
    private final JournalReader reads;
    private final Executor async;
    private final Replays replays;

    /** {@code async} runs the commands that take no turn of the session (branches) when they are asked for as futures. */
    public SessionCommands(CommandGate gate, StateManager states, AgentLoop loop, HumanCommands humans, DoubleTexts doubleTexts,
                           Compensations compensations, Branches branches, JournalReader reads, Executor async) {
        this.gate = gate;
        this.states = states;
        this.loop = loop;
        this.humans = humans;
        this.doubleTexts = doubleTexts;
        this.compensations = compensations;
        this.branches = branches;
        this.reads = reads;
        this.async = async;
        this.replays = new Replays(this, loop, states, reads);
    }

    /** One command of a session: its {@link Cmd}, its work, and how a repeat answers from the first run's record. */
    record Command<T>(Cmd cmd, CommandGate.Body<T> body, Function<CommandRecord, T> replay) {}

    /** Runs {@code command} in the session's order and waits for it. */
    <T> T call(SessionKey key, Command<T> command) {
        return gate.call(key, command.cmd(), command.body(), command.replay());
    }

    /** Queues {@code command} behind the session's earlier ones. */
    <T> CompletableFuture<T> queue(SessionKey key, Command<T> command) {
        return gate.submit(key, command.cmd(), command.body(), command.replay());
    }

    /** Runs {@code work} on one of the runtime's threads. */
    <T> CompletableFuture<T> elsewhere(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, async);
    }

    /** A submit; {@code configured} is the session config's double-texting strategy, asked for only when the options name none. */
    Command<TurnResult> submit(SessionKey key, CommandOptions options, String text, Supplier<DoubleTexting> configured) {
        if (text == null || text.isBlank()) {
            throw new InvalidInputException("text", "a message must not be blank");
        }
        Cmd cmd = Cmd.of(options, "submit", text);
        DoubleTexting strategy = options.doubleTexting().orElseGet(configured);
        CommandGate.Body<TurnResult> body = strategy == DoubleTexting.ENQUEUE || gate.recorded(key, cmd)
                ? c -> loop.turn(key, text, c) // a repeated command id meets no running turn: it only replays
                : doubleTexts.prepare(key, text, strategy);
        return new Command<>(cmd, body, first -> replayTurn(key, first));
    }

    Command<TurnResult> approve(SessionKey key, CommandOptions options, String toolUseId, JsonNode editedArguments) {
        Require.nonBlank(toolUseId, "toolUseId");
        Cmd cmd = Cmd.of(options, "approve", toolUseId + "|" + (editedArguments == null ? "" : editedArguments.toString()));
        return new Command<>(cmd, c -> humans.approve(key, c, toolUseId, editedArguments), first -> replayTurn(key, first));
    }

    Command<TurnResult> deny(SessionKey key, CommandOptions options, String toolUseId, String reason) {
        Require.nonBlank(toolUseId, "toolUseId");
        Require.nonBlank(reason, "reason");
        Cmd cmd = Cmd.of(options, "deny", toolUseId + "|" + reason);
        return new Command<>(cmd, c -> humans.deny(key, c, toolUseId, reason), first -> replayTurn(key, first));
    }

    /** Sets the budget; the result is the turn it continued, or null (then a retry replays null too). */
    Command<TurnResult> setBudget(SessionKey key, CommandOptions options, dev.threadline.core.state.Budget budget) {
        Require.nonNull(budget, "budget");
        Cmd cmd = Cmd.of(options, "budget", budget.tokens() + "|" + budget.costMicros());
        return new Command<>(cmd, c -> humans.setBudget(key, c, budget), first -> {
            List<dev.threadline.core.event.StoredEvent> after = reads.read(key, first.seq(), reads.head(key));
            boolean resumed = after.stream().skip(1).anyMatch(e -> first.commandId().equals(e.commandId()));
            return resumed ? TurnReplay.of(key.id(), after) : null;
        });
    }

    Command<TurnResult> answer(SessionKey key, CommandOptions options, String toolUseId, String text) {
        Require.nonBlank(toolUseId, "toolUseId");
        if (text == null || text.isBlank()) {
            throw new InvalidInputException("text", "an answer must not be blank");
        }
        Cmd cmd = Cmd.of(options, "answer", toolUseId + "|" + text);
        return new Command<>(cmd, c -> humans.answer(key, c, toolUseId, text), first -> replayTurn(key, first));
    }

    /** A step recorded by code outside the loop: guarded to run between turns and to leave the session between turns. */
    Command<Commit> recordStep(SessionKey key, CommandOptions options, Decider decider) {
        Require.nonNull(decider, "decider");
        return update(key, options, s -> {
            if (!s.isIdle() || !s.pending().isEmpty()) {
                throw new InvalidInputException("step", "the session is " + s.status().wireName()
                        + ": a recorded step is written between turns");
            }
            List<Event> events = decider.decide(s);
            State after = s;
            for (Event e : events == null ? List.<Event>of() : events) {
                after = Reducer.apply(after, e);
            }
            if (!after.isIdle() || !after.pending().isEmpty()) {
                throw new InvalidInputException("step", "a recorded step must leave the session between turns (idle, no tool"
                        + " call unanswered); this one would leave it " + after.status().wireName()
                        + (after.pending().isEmpty() ? "" : " with calls " + after.pending().stream().map(p -> p.toolUseId()).toList()
                        + " unanswered") + "; nothing was written");
            }
            return events;
        });
    }

    /** The raw step of events a decider chooses, mid-turn or not: not public API (the test kit's raw steps use it). */
    Command<Commit> update(SessionKey key, CommandOptions options, Decider decider) {
        Require.nonNull(decider, "decider");
        return new Command<>(Cmd.of(options, "update", null), c -> states.update(key, CheckpointSource.EDIT, c, decider),
                first -> replayCommit(key, first));
    }

    Command<Commit> edit(SessionKey key, CommandOptions options, String author, String reason, List<Edit> edits) {
        Require.nonBlank(author, "author");
        Require.argument(edits != null && !edits.isEmpty(), "edits", "at least one edit is needed");
        edits.forEach(e -> Require.nonNull(e, "edit"));
        Event.StateEdited edited = new Event.StateEdited(author, reason, edits);
        return new Command<>(Cmd.of(options, "edit", Json.write(edited)), c -> {
            for (Edit e : edits) {
                if (e instanceof Edit.SetModel m) { // its model must exist here, as a new session's must: else nothing is written
                    loop.context(states.info(key).config().withModel(m.model(), m.baseUrl()));
                }
            }
            return states.update(key, CheckpointSource.EDIT, c, s -> List.of(edited));
        }, first -> replayCommit(key, first));
    }

    Command<Commit> clear(SessionKey key, CommandOptions options) {
        return new Command<>(Cmd.of(options, "clear", null),
                c -> states.update(key, CheckpointSource.EDIT, c, s -> List.of(new Event.Cleared())), first -> replayCommit(key, first));
    }

    Command<CompactionResult> compact(SessionKey key, CommandOptions options, String focus) {
        Cmd cmd = Cmd.of(options, "compact", focus == null ? "" : focus);
        return new Command<>(cmd, c -> loop.context(states.config(key)).compactNow(key, c, focus), first -> {
            Commit c = replayCommit(key, first);
            return new CompactionResult(!c.isEmpty(), 0, 0, 0, c.state().usage());
        });
    }

    Command<List<SideEffect>> compensate(SessionKey key, CommandOptions options, long seq) {
        Require.argument(seq >= 0, "seq", "must not be negative, was " + seq);
        return new Command<>(Cmd.of(options, "compensate", Long.toString(seq)), c -> compensations.run(key, c, seq), first -> List.of());
    }

    /** A fork or rewind: the new branch's key (it takes no turn of the source, so it runs on the caller's thread). */
    SessionKey branch(SessionKey key, CommandOptions options, long seq, String newId, String reason, String infix) {
        return branches.branch(key, seq, newId, reason, infix, options);
    }

    /** Replays the session's user turns on another model, on a new branch (each turn one command of the branch). */
    dev.threadline.core.runtime.ReplayReport replay(SessionKey key, CommandOptions options, dev.threadline.core.runtime.ReplayRequest request) {
        return replays.replay(key, options, Require.nonNull(request, "request"));
    }

    /** Asks the turn this process runs for the session to stop. */
    boolean interrupt(SessionKey key) {
        return loop.interrupt(key, "interrupted by the user");
    }

    private TurnResult replayTurn(SessionKey key, CommandRecord first) {
        return TurnReplay.of(key.id(), reads.read(key, first.seq(), reads.head(key)));
    }

    /** The events the first run of a command wrote in its first step, and the state after them. */
    private Commit replayCommit(SessionKey key, CommandRecord first) {
        List<StoredEvent> events = reads.read(key, first.seq(), reads.head(key)).stream()
                .takeWhile(e -> e.commandId().equals(first.commandId())).toList();
        long last = events.isEmpty() ? first.seq() : events.get(events.size() - 1).seq();
        return new Commit(events, states.stateAt(key, last));
    }
}
