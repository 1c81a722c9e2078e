package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.InvalidInputException;
import dev.threadline.core.Require;
import dev.threadline.core.ThreadlineException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.DoubleTexting;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.Checkpoint;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.internal.store.Lineage;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The {@link Session} implementation: a session key bound to a runtime's engine. Thread-safe. */
final class SessionHandle implements Session {
    private final Engine engine;
    private final SessionKey key;
    private volatile DoubleTexting configured; // the session config's strategy: fixed at creation, read once

    SessionHandle(Engine engine, SessionKey key) {
        this.engine = engine;
        this.key = key;
    }

    @Override
    public String id() {
        return key.id();
    }

    @Override
    public SessionInfo info() {
        return engine.states().info(key);
    }

    @Override
    public TurnResult submit(String text, CommandOptions options) {
        requireText(text);
        Cmd cmd = Cmd.of(options, "submit", text);
        return engine.gate().call(key, cmd, turnBody(text, cmd, options), this::replayTurn);
    }

    @Override
    public CompletableFuture<TurnResult> submitAsync(String text, CommandOptions options) {
        requireText(text);
        Cmd cmd = Cmd.of(options, "submit", text);
        return engine.gate().submit(key, cmd, turnBody(text, cmd, options), this::replayTurn);
    }

    /**
     * The body of a submit after its double-texting strategy met any running turn (a repeated command
     * id meets nothing: it only replays).
     */
    private CommandGate.Body<TurnResult> turnBody(String text, Cmd cmd, CommandOptions options) {
        DoubleTexting strategy = options != null && options.doubleTexting() != null ? options.doubleTexting() : configured();
        if (strategy == DoubleTexting.ENQUEUE || (cmd.hasCallerId() && engine.store().command(key, cmd.id()).isPresent())) {
            return c -> engine.loop().turn(key, text, c);
        }
        return new DoubleTexts(engine).prepare(key, text, strategy);
    }

    private TurnResult replayTurn(CommandRecord first) {
        return TurnReplay.of(key.id(), Lineage.read(engine.store(), key, first.seq(), engine.store().head(key)));
    }

    private static void requireText(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidInputException("text", "a message must not be blank");
        }
    }

    static {
        dev.threadline.core.internal.runtime.RawSteps.install((session, decider) ->
                ((SessionHandle) session).update(decider, CommandOptions.NONE));
    }

    @Override
    public Commit recordStep(Decider decider, CommandOptions options) {
        Require.nonNull(decider, "decider");
        return update(s -> {
            if (!s.isIdle() || !s.pending().isEmpty()) {
                throw new InvalidInputException("step", "the session is " + s.status().wireName()
                        + ": a recorded step is written between turns");
            }
            List<Event> events = decider.decide(s);
            State after = s;
            for (Event e : events == null ? List.<Event>of() : events) {
                after = dev.threadline.core.internal.state.Reducer.apply(after, e);
            }
            if (!after.isIdle() || !after.pending().isEmpty()) {
                throw new InvalidInputException("step", "a recorded step must leave the session between turns (idle, no tool"
                        + " call unanswered); this one would leave it " + after.status().wireName()
                        + (after.pending().isEmpty() ? "" : " with calls " + after.pending().stream().map(p -> p.toolUseId()).toList()
                        + " unanswered") + "; nothing was written");
            }
            return events;
        }, options);
    }

    /** The raw step of events a decider chooses: not public API (tests and the engine's own callers use it). */
    Commit update(Decider decider, CommandOptions options) {
        Require.nonNull(decider, "decider");
        return engine.gate().call(key, Cmd.of(options, "update", null),
                c -> engine.states().update(key, CheckpointSource.EDIT, c, decider), this::replayCommit);
    }

    /** The events the first run of a command wrote in its first step, and the state after them. */
    private Commit replayCommit(CommandRecord first) {
        List<StoredEvent> events = Lineage.read(engine.store(), key, first.seq(), engine.store().head(key)).stream()
                .takeWhile(e -> e.commandId().equals(first.commandId())).toList();
        long last = events.isEmpty() ? first.seq() : events.get(events.size() - 1).seq();
        return new Commit(events, engine.states().stateAt(key, last));
    }

    @Override
    public TurnResult approve(String toolUseId, JsonNode editedArguments, CommandOptions options) {
        Require.nonBlank(toolUseId, "toolUseId");
        Cmd cmd = Cmd.of(options, "approve", toolUseId + "|" + (editedArguments == null ? "" : editedArguments.toString()));
        return engine.gate().call(key, cmd, c -> humans().approve(key, c, toolUseId, editedArguments), this::replayTurn);
    }

    @Override
    public TurnResult deny(String toolUseId, String reason, CommandOptions options) {
        Require.nonBlank(toolUseId, "toolUseId");
        Require.nonBlank(reason, "reason");
        Cmd cmd = Cmd.of(options, "deny", toolUseId + "|" + reason);
        return engine.gate().call(key, cmd, c -> humans().deny(key, c, toolUseId, reason), this::replayTurn);
    }

    @Override
    public TurnResult answer(String toolUseId, String text, CommandOptions options) {
        Require.nonBlank(toolUseId, "toolUseId");
        if (text == null || text.isBlank()) {
            throw new InvalidInputException("text", "an answer must not be blank");
        }
        Cmd cmd = Cmd.of(options, "answer", toolUseId + "|" + text);
        return engine.gate().call(key, cmd, c -> humans().answer(key, c, toolUseId, text), this::replayTurn);
    }

    private DoubleTexting configured() {
        DoubleTexting d = configured;
        if (d == null) {
            d = info().config().doubleTexting();
            configured = d;
        }
        return d;
    }

    private HumanCommands humans() {
        return new HumanCommands(engine);
    }

    @Override
    public List<PendingApproval> pendingApprovals() {
        return state().awaiting().stream().map(PendingApproval::of).toList();
    }

    @Override
    public Commit edit(String author, String reason, List<Edit> edits, CommandOptions options) {
        Require.nonBlank(author, "author");
        Require.argument(edits != null && !edits.isEmpty(), "edits", "at least one edit is needed");
        edits.forEach(e -> Require.nonNull(e, "edit"));
        Event.StateEdited edited = new Event.StateEdited(author, reason, edits);
        return engine.gate().call(key, Cmd.of(options, "edit", dev.threadline.core.json.Json.write(edited)),
                c -> engine.states().update(key, CheckpointSource.EDIT, c, s -> List.of(edited)), this::replayCommit);
    }

    @Override
    public boolean interrupt() {
        return engine.loop().interrupt(key, "interrupted by the user");
    }

    @Override
    public void clear(CommandOptions options) {
        engine.gate().call(key, Cmd.of(options, "clear", null),
                c -> engine.states().update(key, CheckpointSource.EDIT, c, s -> List.of(new Event.Cleared())), this::replayCommit);
    }

    @Override
    public CompactionResult compact(String focus, CommandOptions options) {
        Cmd cmd = Cmd.of(options, "compact", focus == null ? "" : focus);
        return engine.gate().call(key, cmd, c -> engine.loop().context(info().config()).compactNow(key, c, focus), first -> {
            Commit c = replayCommit(first);
            return new CompactionResult(!c.isEmpty(), 0, 0, 0, c.state().usage());
        });
    }

    @Override
    public ContextReport context() {
        return engine.loop().context(info().config()).report(key);
    }

    @Override
    public State state() {
        return engine.states().get(key);
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope) {
        SessionInfo info = info();
        return switch (Require.nonNull(scope, "scope")) {
            case SESSION -> state().variables();
            case USER -> engine.store().variables(VariableScope.USER, ScopedWrite.userKey(info.tenant(), info.userId()));
            case APP -> engine.store().variables(VariableScope.APP, ScopedWrite.appKey(info.tenant()));
            case TEMP -> Map.of();
        };
    }

    @Override
    public List<SideEffect> sideEffectsAfter(long seq) {
        Require.argument(seq >= 0, "seq", "must not be negative, was " + seq);
        return SideEffects.after(engine.store(), key, seq);
    }

    @Override
    public List<SideEffect> compensate(long seq, CommandOptions options) {
        Require.argument(seq >= 0, "seq", "must not be negative, was " + seq);
        return engine.gate().call(key, Cmd.of(options, "compensate", Long.toString(seq)),
                c -> new Compensations(engine, engine.loop().skills()).run(key, c, seq), first -> List.of());
    }

    @Override
    public List<Checkpoint> checkpoints() {
        return Checkpoints.of(key.id(), journal());
    }

    @Override
    public Page<Checkpoint> checkpoints(PageRequest page) {
        return Checkpoints.page(key, engine.store(), Require.nonNull(page, "page"));
    }

    @Override
    public State stateAt(long seq) {
        return engine.states().stateAt(key, seq);
    }

    @Override
    public List<StoredEvent> journal() {
        return Lineage.read(engine.store(), key, 1, engine.store().head(key));
    }

    @Override
    public List<StoredEvent> events(long afterSeq, int limit) {
        Require.argument(afterSeq >= 0, "after", "must not be negative, was " + afterSeq);
        Require.argument(limit >= 1 && limit <= 1000, "limit", "must be between 1 and 1000, was " + limit);
        long head = engine.store().head(key);
        return Lineage.read(engine.store(), key, afterSeq + 1, Math.min(head, afterSeq + limit));
    }

    @Override
    public List<StoredEvent> awaitEvents(long afterSeq, Duration timeout) {
        Require.nonNull(timeout, "timeout");
        try {
            long head = engine.store().awaitHead(key, afterSeq, timeout);
            return head > afterSeq ? events(afterSeq, 1000) : List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThreadlineException("interrupted while waiting for events of session '" + key.id() + "'", e);
        }
    }

    @Override
    public Session fork(long seq, String newId, CommandOptions options) {
        return new Branches(engine, key).branch(seq, newId, "fork", ".f", options);
    }

    @Override
    public Session rewind(long seq, CommandOptions options) {
        return new Branches(engine, key).branch(seq, null, "rewind", ".r", options);
    }

    @Override
    public String toString() {
        return "Session[" + key.id() + "]";
    }
}
