package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.internal.engine.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.Require;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.engine.live.LiveRegistry;
import dev.threadline.core.internal.engine.live.TurnControl;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.log.Logs;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.Decider;
import dev.threadline.core.runtime.TurnListener;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.runtime.TurnResult.Outcome;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * The turn engine: append the user message, call the session's model (chosen by its config's model
 * spec through the {@link ModelResolver}) with the view its context policy yields (compacting first
 * when auto-compact says so, see {@link ContextStep}), append the reply, run the skills it asks for and
 * append their results, and repeat until the model ends its turn, a limit is hit (model calls, token
 * budget, output limit, context window), or the turn is interrupted. Each round of the loop returns a
 * {@link TurnStep} the loop switches over. Runs inside a command holding the session's lease (one turn
 * per session at a time, across processes); the running turn is recorded in the {@link LiveRegistry}.
 * Thread-safe.
 */
public final class AgentLoop {
    private static final Logger LOG = Logs.get(AgentLoop.class);

    private final StateManager states;
    private final ModelResolver models;
    private final SkillRegistry skills;
    private final TokenCounter tokens;
    private final ToolExecutor tools;
    private final LiveRegistry live;
    private final Tracing tracing;
    private final dev.threadline.core.llm.PriceTable prices;
    private final Map<ChatModel, ContextStep> contexts = new ConcurrentHashMap<>();

    /** {@code tokens} counts messages locally; the model's own count is used for whole requests where it offers one. */
    public AgentLoop(StateManager states, ModelResolver models, SkillRegistry skills, TokenCounter tokens, ToolExecutor tools,
                     LiveRegistry live, Tracing tracing, dev.threadline.core.llm.PriceTable prices) {
        this.prices = Require.nonNull(prices, "prices");
        this.states = Require.nonNull(states, "states");
        this.models = Require.nonNull(models, "models");
        this.skills = Require.nonNull(skills, "skills");
        this.tokens = Require.nonNull(tokens, "tokens");
        this.tools = Require.nonNull(tools, "tools");
        this.live = Require.nonNull(live, "live");
        this.tracing = Require.nonNull(tracing, "tracing");
    }

    /** The context step of the model a config names. */
    public ContextStep context(SessionConfig config) {
        ChatModel model = models.resolve(config.model(), config.baseUrl());
        return contexts.computeIfAbsent(model, m -> new ContextStep(states, m, skills, tokens, tracing, tools.journal(),
                prices));
    }

    /** The skills this loop's models may call. */
    public SkillRegistry skills() {
        return skills;
    }

    /** The executor of this loop's tool calls. */
    public ToolExecutor tools() {
        return tools;
    }

    /** Whether this process runs a turn of the session now. */
    public boolean runs(SessionKey key) {
        return live.runs(key);
    }

    /**
     * Runs one turn for {@code text}. Model failures are recorded as an interrupted turn and rethrown.
     * A turn suspended awaiting a person is closed first, in the same step as the new message: its
     * waiting calls are denied (or their questions failed), so the transcript stays valid.
     */
    public TurnResult turn(SessionKey key, String text, Cmd cmd) {
        Require.nonBlank(text, "text");
        return run(key, cmd, "message", st -> {
            List<Event> events = new ArrayList<>(Suspension.superseding(st));
            events.add(new Event.UserMessageReceived(Message.user(text)));
            return events;
        }, List.of());
    }

    /**
     * Runs a turn for the steered messages that wait in the state (they met a turn that ended before its next model
     * call): a turn suspended awaiting a person is closed first, as for a new message; then they join the transcript
     * as the turn's opening step.
     */
    public TurnResult steered(SessionKey key, Cmd cmd) {
        return run(key, cmd, "message", st -> {
            List<Event> events = new ArrayList<>(Suspension.superseding(st));
            events.add(new Event.SteeringDelivered(st.steered()));
            return events;
        }, List.of());
    }

    /**
     * Resumes a suspended turn: {@code first} is the person's step (an approval and the call's start, a
     * denial, an answer), {@code calls} what it lets run; then the turn goes on as usual, suspending
     * again if calls still wait.
     */
    public TurnResult resume(SessionKey key, Cmd cmd, Decider first, List<ContentBlock.ToolUse> calls) {
        return run(key, cmd, "resume", first, calls);
    }

    /** One turn as it runs: its session, command, config, cancellation handle, and what it has spent so far. */
    private final class Turn {
        final SessionKey key;
        final Cmd cmd;
        final SessionConfig config;
        final ContextStep context;
        final TurnControl control = new TurnControl();
        int modelCalls;
        int toolCalls;
        Usage usage = Usage.ZERO;

        Turn(SessionKey key, Cmd cmd) {
            this.key = key;
            this.cmd = cmd;
            this.config = states.config(key); // the model of the latest model edit, if any
            this.context = context(config);
        }

        TurnResult result(Outcome outcome, String reply, String reason) {
            return new TurnResult(key.id(), outcome, reply, reason, states.get(key).seq(), modelCalls, toolCalls, usage);
        }
    }

    private TurnResult run(SessionKey key, Cmd cmd, String kind, Decider first, List<ContentBlock.ToolUse> calls) {
        Span span = tracing.turn(key, kind);
        String outcome = "failed";
        Turn t = null;
        try (Scope scope = tracing.enter(span)) {
            t = new Turn(key, cmd);
            TurnResult result = run(t, first, calls);
            outcome = result.outcome().name();
            return result;
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            Tracing.endTurn(span, outcome, t == null ? 0 : t.modelCalls, t == null ? 0 : t.toolCalls, t == null ? Usage.ZERO : t.usage);
        }
    }

    private TurnResult run(Turn t, Decider first, List<ContentBlock.ToolUse> calls) {
        SessionKey key = t.key;
        Cmd cmd = t.cmd;
        live.startTurn(key, t.control);
        boolean started = false;
        try {
            states.update(key, CheckpointSource.INPUT, cmd, first);
            started = true;
            tools.runAll(key, cmd, calls, t.config, t.control);
            while (true) {
                switch (round(t)) {
                    case TurnStep.GoOn g -> { }
                    case TurnStep.Suspend s -> {
                        return s.result();
                    }
                    case TurnStep.End e -> {
                        return e.result();
                    }
                }
            }
        } catch (LeaseLostException e) {
            throw e; // another process owns the session now: it closes this turn; writing anything here is refused
        } catch (RuntimeException e) {
            if (started) {
                closeQuietly(key, cmd, "the turn failed: " + e.getMessage());
            }
            throw e;
        } finally {
            live.endTurn(key, t.control);
        }
    }

    /**
     * One round: suspend when calls wait for a person, end at a limit, or call the model and record its
     * reply (running the tools it asks for).
     */
    private TurnStep round(Turn t) {
        State s = states.get(t.key);
        if (!t.control.interrupted() && !s.awaiting().isEmpty()) {
            return suspend(t, s); // not after an interrupt: that ends the turn
        }
        Optional<TurnEnding> limit = TurnEnding.beforeModelCall(t.config, t.control.reason(), t.modelCalls, t.usage);
        if (limit.isPresent()) {
            return end(t, limit.get().outcome(), limit.get().reason());
        }
        dev.threadline.core.state.Budget budget = s.budgetOr(t.config.budget());
        if (budget != null && budget.reachedBy(s.usage())) {
            return suspendForBudget(t, budget, s.usage());
        }
        if (!s.steered().isEmpty()) { // messages steered into this turn join it before the model is called again
            states.update(t.key, CheckpointSource.INPUT, t.cmd, st -> st.steered().isEmpty() || !st.pending().isEmpty() ? List.of()
                    : List.of(new Event.SteeringDelivered(st.steered())));
        }
        ChatResponse response;
        try {
            ContextStep.Prepared prepared = t.context.prepare(t.key, t.cmd, t.config);
            t.usage = t.usage.plus(prepared.spent());
            switch (prepared) {
                case ContextStep.Prepared.Overflow o -> {
                    return end(t, Outcome.CONTEXT_OVERFLOW, o.reason());
                }
                case ContextStep.Prepared.Send send -> response = call(t, send.request());
            }
        } catch (ModelCall.Cancelled e) {
            return end(t, Outcome.INTERRUPTED, t.control.reason()); // the call is abandoned; its connection closes
        } catch (ModelException e) {
            end(t, Outcome.INTERRUPTED, "model error: " + e.getMessage());
            throw e;
        }
        t.modelCalls++;
        response = new ChatResponse(response.content(), response.stopReason(), prices.priced(t.config.model(), response.usage()));
        t.usage = t.usage.plus(response.usage());
        return record(t, response);
    }

    /**
     * One model call: streamed to the command's listener when it has one (models that cannot stream give
     * the text at once). It runs as a {@link ModelCall}, so that an interrupt cancels it at once.
     */
    private ChatResponse call(Turn t, ChatRequest request) {
        ChatModel model = t.context.model();
        Span span = tracing.chat(t.key, model, request);
        try (Scope scope = tracing.enter(span)) {
            ChatResponse response = call(t, model, request);
            Tracing.answered(span, response);
            return response;
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    private ChatResponse call(Turn t, ChatModel model, ChatRequest request) {
        TurnListener listener = t.cmd.listener();
        String thread = "threadline-model-call-" + t.key.id();
        if (listener == null) {
            return ModelCall.run(t.control, thread, tracing, gate -> model.complete(request));
        }
        int modelCall = t.modelCalls + 1;
        return ModelCall.run(t.control, thread, tracing, gate -> model.stream(request, new StreamListener() {
            @Override
            public void onText(String text) {
                gate.pass(() -> hear(t.key, () -> listener.onTextDelta(new TurnListener.TextDelta(modelCall, text))));
            }

            @Override
            public void onToolInput(String toolUseId, String toolName, String partialJson) {
                gate.pass(() -> hear(t.key, () -> listener.onToolInputDelta(
                        new TurnListener.ToolInputDelta(modelCall, toolUseId, toolName, partialJson))));
            }
        }));
    }

    private static void hear(SessionKey key, Runnable delivery) {
        try {
            delivery.run();
        } catch (RuntimeException e) {
            LOG.warn("session {}: a turn listener failed ({}); the turn goes on", key, e.toString());
        }
    }

    /** Suspends the turn before a model call: the session spent its budget; raising it continues the turn. */
    private TurnStep suspendForBudget(Turn t, dev.threadline.core.state.Budget budget, Usage spent) {
        Event.TurnSuspended suspended = new Event.TurnSuspended(Suspension.BUDGET_EXCEEDED + ": " + budget.describe(spent));
        states.update(t.key, CheckpointSource.LOOP, t.cmd, st -> List.of(suspended));
        return new TurnStep.Suspend(t.result(Outcome.BUDGET_EXCEEDED, "", suspended.reason()));
    }

    /** Suspends the turn: calls wait for a person and nothing else is left to run. */
    private TurnStep suspend(Turn t, State s) {
        Event.TurnSuspended suspended = Suspension.of(s);
        State after = states.update(t.key, CheckpointSource.LOOP, t.cmd, st -> List.of(suspended)).state();
        Outcome outcome = after.status() == SessionStatus.AWAITING_APPROVAL ? Outcome.AWAITING_APPROVAL : Outcome.AWAITING_INPUT;
        return new TurnStep.Suspend(t.result(outcome, "", suspended.reason()));
    }

    /**
     * Records the reply. Ends the turn at end_turn, max_tokens or refusal (see {@link TurnEnding#ofReply});
     * otherwise runs the requested tools that need no person (the others are recorded as awaiting
     * approval or an answer) and goes on: the next round calls the model again, or suspends the turn.
     */
    private TurnStep record(Turn t, ChatResponse response) {
        Message reply = response.toMessage();
        Optional<TurnEnding> ending = TurnEnding.ofReply(response, t.config.maxOutputTokens());
        if (ending.isPresent()) {
            try {
                states.update(t.key, CheckpointSource.LOOP, t.cmd, st -> ending.get().events(reply));
            } catch (InvalidEventException e) {
                return end(t, Outcome.INTERRUPTED, "the model's reply was refused: " + e.getMessage());
            }
            return new TurnStep.End(t.result(ending.get().outcome(), reply.text(), ending.get().reason()));
        }
        List<ContentBlock.ToolUse> uses = reply.toolUses();
        List<Event> first = new ArrayList<>();
        first.add(new Event.AssistantMessageReceived(reply));
        List<ContentBlock.ToolUse> runnable = new ArrayList<>();
        for (ContentBlock.ToolUse use : uses) {
            Event admitted = tools.admission(use, t.config, t.cmd.answers());
            first.add(admitted);
            if (admitted instanceof Event.ToolCallStarted) {
                runnable.add(use);
            }
        }
        try {
            states.update(t.key, CheckpointSource.LOOP, t.cmd, st -> first);
        } catch (InvalidEventException e) {
            // the model broke the protocol (e.g. reused a tool_use id): keep the journal valid, end the turn
            return end(t, Outcome.INTERRUPTED, "the model's reply was refused: " + e.getMessage());
        }
        t.toolCalls += uses.size();
        tools.runAll(t.key, t.cmd, runnable, t.config, t.control);
        return TurnStep.GoOn.INSTANCE;
    }

    /**
     * Asks the turn this process runs for the session to stop: running skills are cancelled and
     * recorded as failed, a model call it waits for is abandoned (see {@link ModelCall}), and the turn
     * ends as interrupted. Returns false when no turn runs here.
     */
    public boolean interrupt(SessionKey key, String reason) {
        return live.interrupt(key, reason == null ? "interrupted by the user" : reason);
    }

    private TurnStep end(Turn t, Outcome outcome, String reason) {
        states.update(t.key, CheckpointSource.LOOP, t.cmd, st -> closingEvents(st, outcome, reason));
        return new TurnStep.End(t.result(outcome, "", reason));
    }

    /** Events that bring a running turn to rest: unanswered calls fail, then the turn ends. */
    public static List<Event> closingEvents(State st, Outcome outcome, String reason) {
        return new TurnEnding(outcome, reason).closing(st);
    }

    private void closeQuietly(SessionKey key, Cmd cmd, String reason) {
        try {
            states.update(key, CheckpointSource.SYSTEM, cmd, st -> closingEvents(st, TurnResult.Outcome.INTERRUPTED, reason));
        } catch (RuntimeException e) {
            // a warning, not an error: nothing is lost, the turn stays open in the journal and is closed by the
            // next command on the session (or the next owner of its lease); the caller already has the failure
            LOG.warn("session {}: could not record the end of a failed turn ({}); the next owner of its lease closes it",
                    key, e.toString());
            states.evict(key);
        }
    }
}
