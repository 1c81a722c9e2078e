package dev.threadline.core.runtime;

import dev.threadline.core.InvalidEventException;
import dev.threadline.core.LeaseLostException;
import dev.threadline.core.Require;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.TurnResult.Outcome;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import dev.threadline.core.internal.log.Logs;
import org.slf4j.Logger;

/**
 * The turn engine: append the user message, call the session's model (chosen by its config's model
 * spec through the {@link ModelResolver}) with the view its context policy yields (compacting first
 * when auto-compact says so, see {@link ContextStep}), append the reply, run the skills it asks for and
 * append their results, and repeat until the model ends its turn, a limit is hit (model calls, token
 * budget, output limit, context window), or the turn is interrupted. Runs inside a command holding the
 * session's lease (one turn per session at a time, across processes). Thread-safe.
 */
final class AgentLoop {
    private static final Logger LOG = Logs.get(AgentLoop.class);

    private final StateManager states;
    private final ModelResolver models;
    private final SkillRegistry skills;
    private final TokenCounter tokens;
    private final ToolExecutor tools;
    private final Map<ChatModel, ContextStep> contexts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<SessionKey, TurnControl> running = new ConcurrentHashMap<>();

    /** {@code tokens} counts messages locally; the model's own count is used for whole requests where it offers one. */
    AgentLoop(StateManager states, ModelResolver models, SkillRegistry skills, TokenCounter tokens, ExecutorService skillExecutor) {
        this.states = Require.nonNull(states, "states");
        this.models = Require.nonNull(models, "models");
        this.skills = Require.nonNull(skills, "skills");
        this.tokens = Require.nonNull(tokens, "tokens");
        this.tools = new ToolExecutor(states, skills, skillExecutor);
    }

    /** The context step of the model a config names. */
    ContextStep context(SessionConfig config) {
        ChatModel model = models.resolve(config.model());
        return contexts.computeIfAbsent(model, m -> new ContextStep(states, m, skills, tokens));
    }

    /** The skills this loop's models may call. */
    SkillRegistry skills() {
        return skills;
    }

    /** The executor of this loop's tool calls. */
    ToolExecutor tools() {
        return tools;
    }

    /** Whether this process runs a turn of the session now. */
    boolean runs(SessionKey key) {
        return running.containsKey(key);
    }

    /**
     * Runs one turn for {@code text}. Model failures are recorded as an interrupted turn and rethrown.
     * A turn suspended awaiting a person is closed first, in the same step as the new message: its
     * waiting calls are denied (or their questions failed), so the transcript stays valid.
     */
    TurnResult turn(SessionKey key, String text, Cmd cmd) {
        Require.nonBlank(text, "text");
        return run(key, cmd, st -> {
            List<Event> events = new ArrayList<>(Suspension.superseding(st));
            events.add(new Event.UserMessageReceived(Message.user(text)));
            return events;
        }, List.of(), CheckpointSource.INPUT);
    }

    /**
     * Resumes a suspended turn: {@code first} is the person's step (an approval and the call's start, a
     * denial, an answer), {@code calls} what it lets run; then the turn goes on as usual, suspending
     * again if calls still wait.
     */
    TurnResult resume(SessionKey key, Cmd cmd, Decider first, List<ContentBlock.ToolUse> calls) {
        return run(key, cmd, first, calls, CheckpointSource.INPUT);
    }

    private TurnResult run(SessionKey key, Cmd cmd, Decider first, List<ContentBlock.ToolUse> calls, CheckpointSource source) {
        SessionConfig config = states.info(key).config();
        ContextStep context = context(config);
        TurnControl control = new TurnControl();
        if (running.putIfAbsent(key, control) != null) {
            throw new IllegalStateException("session " + key + " already runs a turn here; submit through its mailbox");
        }
        long startSeq = -1;
        try {
            startSeq = states.update(key, source, cmd, first).state().seq();
            Tally t = new Tally();
            tools.runAll(key, cmd, calls, config, control);
            while (true) {
                TurnResult suspended = suspendIfWaiting(key, cmd, control, t);
                if (suspended != null) {
                    return suspended;
                }
                TurnEnding limit = TurnEnding.beforeModelCall(config, control.reason(), t.modelCalls, t.usage);
                if (limit != null) {
                    return end(key, cmd, limit.outcome(), limit.reason(), t);
                }
                ContextStep.Prepared prepared;
                ChatResponse response;
                try {
                    prepared = context.prepare(key, cmd, config);
                    t.usage = t.usage.plus(prepared.spent());
                    if (prepared instanceof ContextStep.Prepared.Overflow o) {
                        return end(key, cmd, Outcome.CONTEXT_OVERFLOW, o.reason(), t);
                    }
                    response = call(key, context.model(), ((ContextStep.Prepared.Send) prepared).request(), cmd.listener(), t.modelCalls + 1);
                } catch (ModelException e) {
                    end(key, cmd, Outcome.INTERRUPTED, "model error: " + e.getMessage(), t);
                    throw e;
                }
                t.modelCalls++;
                t.usage = t.usage.plus(response.usage());
                TurnResult done = record(key, cmd, config, response, control, t);
                if (done != null) {
                    return done;
                }
            }
        } catch (LeaseLostException e) {
            throw e; // another process owns the session now: it closes this turn; writing anything here is refused
        } catch (RuntimeException e) {
            if (startSeq >= 0) {
                closeQuietly(key, cmd, "the turn failed: " + e.getMessage());
            }
            throw e;
        } finally {
            running.remove(key, control);
        }
    }

    /** One model call: streamed to the command's listener when it has one (models that cannot stream give the text at once). */
    private static ChatResponse call(SessionKey key, ChatModel model, dev.threadline.core.llm.ChatRequest request, TurnListener listener,
                                     int modelCall) {
        if (listener == null) {
            return model.complete(request);
        }
        return model.stream(request, new dev.threadline.core.llm.StreamListener() {
            @Override
            public void onText(String text) {
                try {
                    listener.onTextDelta(new TurnListener.TextDelta(modelCall, text));
                } catch (RuntimeException e) {
                    LOG.warn("session {}: a turn listener failed ({}); the turn goes on", key, e.toString());
                }
            }

            @Override
            public void onToolInput(String toolUseId, String toolName, String partialJson) {
                try {
                    listener.onToolInputDelta(new TurnListener.ToolInputDelta(modelCall, toolUseId, toolName, partialJson));
                } catch (RuntimeException e) {
                    LOG.warn("session {}: a turn listener failed ({}); the turn goes on", key, e.toString());
                }
            }
        });
    }

    /** Suspends the turn when calls wait for a person and nothing else is left to run (not after an interrupt: that ends it). */
    private TurnResult suspendIfWaiting(SessionKey key, Cmd cmd, TurnControl control, Tally t) {
        State s = states.get(key);
        if (control.interrupted() || s.awaiting().isEmpty()) {
            return null;
        }
        Event.TurnSuspended suspended = Suspension.of(s);
        State after = states.update(key, CheckpointSource.LOOP, cmd, st -> List.of(suspended)).state();
        Outcome outcome = after.status() == dev.threadline.core.state.SessionStatus.AWAITING_APPROVAL
                ? Outcome.AWAITING_APPROVAL : Outcome.AWAITING_INPUT;
        return result(key, outcome, "", suspended.reason(), t);
    }

    /** What the turn has spent so far. */
    private static final class Tally {
        int modelCalls;
        int toolCalls;
        Usage usage = Usage.ZERO;
    }

    /**
     * Records the reply. Ends the turn (returns its result) at end_turn, max_tokens or refusal (see
     * {@link TurnEnding#ofReply}); otherwise runs the requested tools that need no person (the others
     * are recorded as awaiting approval or an answer) and returns null: the loop calls the model
     * again, or suspends the turn if calls wait.
     */
    private TurnResult record(SessionKey key, Cmd cmd, SessionConfig config, ChatResponse response, TurnControl control, Tally t) {
        Message reply = response.toMessage();
        TurnEnding ending = TurnEnding.ofReply(response, config.maxOutputTokens());
        if (ending != null) {
            try {
                states.update(key, CheckpointSource.LOOP, cmd, st -> ending.events(reply));
            } catch (InvalidEventException e) {
                return end(key, cmd, Outcome.INTERRUPTED, "the model's reply was refused: " + e.getMessage(), t);
            }
            return result(key, ending.outcome(), reply.text(), ending.reason(), t);
        }
        List<ContentBlock.ToolUse> uses = reply.toolUses();
        List<Event> first = new ArrayList<>();
        first.add(new Event.AssistantMessageReceived(reply));
        List<ContentBlock.ToolUse> runnable = new ArrayList<>();
        for (ContentBlock.ToolUse use : uses) {
            Event admitted = tools.admission(use, config);
            first.add(admitted);
            if (admitted instanceof Event.ToolCallStarted) {
                runnable.add(use);
            }
        }
        try {
            states.update(key, CheckpointSource.LOOP, cmd, st -> first);
        } catch (InvalidEventException e) {
            // the model broke the protocol (e.g. reused a tool_use id): keep the journal valid, end the turn
            return end(key, cmd, Outcome.INTERRUPTED, "the model's reply was refused: " + e.getMessage(), t);
        }
        t.toolCalls += uses.size();
        tools.runAll(key, cmd, runnable, config, control);
        return null;
    }

    /**
     * Asks the turn this process runs for the session to stop: running skills are cancelled and
     * recorded as failed, and the turn ends as interrupted. Returns false when no turn runs here.
     */
    boolean interrupt(SessionKey key, String reason) {
        TurnControl c = running.get(key);
        if (c == null) {
            return false;
        }
        c.interrupt(reason == null ? "interrupted by the user" : reason);
        return true;
    }

    private TurnResult end(SessionKey key, Cmd cmd, Outcome outcome, String reason, Tally t) {
        states.update(key, CheckpointSource.LOOP, cmd, st -> closingEvents(st, outcome, reason));
        return result(key, outcome, "", reason, t);
    }

    private TurnResult result(SessionKey key, Outcome outcome, String reply, String reason, Tally t) {
        return new TurnResult(key.id(), outcome, reply, reason, states.get(key).seq(), t.modelCalls, t.toolCalls, t.usage);
    }

    /** Events that bring a running turn to rest: unanswered calls fail, then the turn ends. */
    static List<Event> closingEvents(State st, Outcome outcome, String reason) {
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
