package dev.threadline.core.runtime;

import dev.threadline.core.InvalidEventException;
import dev.threadline.core.Require;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.TurnResult.Outcome;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turn engine: append the user message, call the model with the view the session's context
 * policy yields (compacting first when auto-compact says so, see {@link ContextStep}), append the
 * reply, run the skills it asks for and append their results, and repeat until the model ends its
 * turn, a limit is hit (model calls, token budget, output limit, context window), or the turn is
 * interrupted. Must run inside the session's {@link SessionRunner} mailbox (one turn per session at a time).
 */
public final class AgentLoop {
    private static final Logger LOG = LoggerFactory.getLogger(AgentLoop.class);

    private final StateManager states;
    private final ChatModel model;
    private final SkillRegistry skills;
    private final ContextStep context;
    private final ToolExecutor tools;
    private final ConcurrentHashMap<String, TurnControl> running = new ConcurrentHashMap<>();

    /** {@code tokens} counts messages locally; the model's own count is used for whole requests where it offers one. */
    public AgentLoop(StateManager states, ChatModel model, SkillRegistry skills, TokenCounter tokens,
                     ExecutorService skillExecutor) {
        this.states = Require.nonNull(states, "states");
        this.model = Require.nonNull(model, "model");
        this.skills = Require.nonNull(skills, "skills");
        this.context = new ContextStep(states, model, skills, Require.nonNull(tokens, "tokens"));
        this.tools = new ToolExecutor(states, skills, skillExecutor);
    }

    public ChatModel model() {
        return model;
    }

    ContextStep context() {
        return context;
    }

    /** Runs one turn for {@code text}. Model failures are recorded as an interrupted turn and rethrown. */
    public TurnResult turn(String sessionId, String text) {
        Require.nonBlank(text, "text");
        SessionInfo info = states.info(sessionId);
        SessionConfig config = info.config();
        String commandId = StateManager.newCommandId();
        TurnControl control = new TurnControl();
        if (running.putIfAbsent(sessionId, control) != null) {
            throw new IllegalStateException("session '" + sessionId + "' already runs a turn; submit through its SessionRunner");
        }
        states.turnStarted(sessionId);
        long startSeq = -1;
        try {
            State s = states.update(sessionId, CheckpointSource.INPUT, commandId,
                    st -> List.of(new Event.UserMessageReceived(Message.user(text)))).state();
            startSeq = s.seq();
            Tally t = new Tally();
            while (true) {
                TurnEnding limit = TurnEnding.beforeModelCall(config, control.reason(), t.modelCalls, t.usage);
                if (limit != null) {
                    return end(sessionId, commandId, limit.outcome(), limit.reason(), t);
                }
                ContextStep.Prepared prepared;
                ChatResponse response;
                try {
                    prepared = context.prepare(sessionId, commandId, config);
                    t.usage = t.usage.plus(prepared.spent());
                    if (prepared instanceof ContextStep.Prepared.Overflow o) {
                        return end(sessionId, commandId, Outcome.CONTEXT_OVERFLOW, o.reason(), t);
                    }
                    response = model.complete(((ContextStep.Prepared.Send) prepared).request());
                } catch (ModelException e) {
                    end(sessionId, commandId, Outcome.INTERRUPTED, "model error: " + e.getMessage(), t);
                    throw e;
                }
                t.modelCalls++;
                t.usage = t.usage.plus(response.usage());
                TurnResult done = record(sessionId, commandId, config, response, control, t);
                if (done != null) {
                    return done;
                }
            }
        } catch (RuntimeException e) {
            if (startSeq >= 0) {
                closeQuietly(sessionId, commandId, "the turn failed: " + e.getMessage());
            }
            throw e;
        } finally {
            running.remove(sessionId, control);
            states.turnEnded(sessionId);
        }
    }

    /** What the turn has spent so far. */
    private static final class Tally {
        int modelCalls;
        int toolCalls;
        Usage usage = Usage.ZERO;
    }

    /**
     * Records the reply. Ends the turn (returns its result) at end_turn, max_tokens or refusal (see
     * {@link TurnEnding#ofReply}); otherwise runs the requested tools and returns null: the loop calls
     * the model again.
     */
    private TurnResult record(String sessionId, String commandId, SessionConfig config, ChatResponse response,
                              TurnControl control, Tally t) {
        Message reply = response.toMessage();
        TurnEnding ending = TurnEnding.ofReply(response, config.maxOutputTokens());
        if (ending != null) {
            try {
                states.update(sessionId, CheckpointSource.LOOP, commandId, st -> ending.events(reply));
            } catch (InvalidEventException e) {
                return end(sessionId, commandId, Outcome.INTERRUPTED, "the model's reply was refused: " + e.getMessage(), t);
            }
            return result(sessionId, ending.outcome(), reply.text(), ending.reason(), t);
        }
        List<ContentBlock.ToolUse> uses = reply.toolUses();
        List<Event> first = new ArrayList<>();
        first.add(new Event.AssistantMessageReceived(reply));
        List<ContentBlock.ToolUse> runnable = new ArrayList<>();
        for (ContentBlock.ToolUse use : uses) {
            String problem = tools.problem(use, config);
            if (problem == null) {
                first.add(new Event.ToolCallStarted(use.id(), use.name()));
                runnable.add(use);
            } else {
                first.add(new Event.ToolCallFailed(use.id(), problem));
            }
        }
        try {
            states.update(sessionId, CheckpointSource.LOOP, commandId, st -> first);
        } catch (InvalidEventException e) {
            // the model broke the protocol (e.g. reused a tool_use id): keep the journal valid, end the turn
            return end(sessionId, commandId, Outcome.INTERRUPTED, "the model's reply was refused: " + e.getMessage(), t);
        }
        t.toolCalls += uses.size();
        tools.runAll(sessionId, commandId, runnable, config, control);
        return null;
    }

    /**
     * Asks the running turn of this session to stop: running skills are cancelled and recorded as
     * failed, and the turn ends as interrupted. Returns false when no turn is running.
     */
    public boolean interrupt(String sessionId, String reason) {
        TurnControl c = running.get(sessionId);
        if (c == null) {
            return false;
        }
        c.interrupt(reason == null ? "interrupted by the user" : reason);
        return true;
    }

    private TurnResult end(String sessionId, String commandId, Outcome outcome, String reason, Tally t) {
        states.update(sessionId, CheckpointSource.LOOP, commandId, st -> closingEvents(st, outcome, reason));
        return result(sessionId, outcome, "", reason, t);
    }

    private TurnResult result(String sessionId, Outcome outcome, String reply, String reason, Tally t) {
        return new TurnResult(sessionId, outcome, reply, reason, states.get(sessionId).seq(), t.modelCalls, t.toolCalls, t.usage);
    }

    /** Events that bring a running turn to rest: unanswered calls fail, then the turn ends. */
    static List<Event> closingEvents(State st, Outcome outcome, String reason) {
        return new TurnEnding(outcome, reason).closing(st);
    }

    private void closeQuietly(String sessionId, String commandId, String reason) {
        try {
            states.update(sessionId, CheckpointSource.SYSTEM, commandId,
                    st -> closingEvents(st, TurnResult.Outcome.INTERRUPTED, reason));
        } catch (RuntimeException e) {
            LOG.error("session {}: could not record the end of a failed turn ({}); it is recovered on next load", sessionId, e.toString());
            states.evict(sessionId);
        }
    }
}
