package dev.threadline.core.runtime;

import dev.threadline.core.InvalidEventException;
import dev.threadline.core.Require;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.model.Usage;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turn engine: append the user message, call the model with the view the context policy yields,
 * append the reply, run the skills it asks for and append their results, and repeat until the model
 * ends its turn, a limit is hit, or the turn is interrupted. Must run inside the session's
 * {@link SessionRunner} mailbox (one turn per session at a time).
 */
public final class AgentLoop {
    private static final Logger LOG = LoggerFactory.getLogger(AgentLoop.class);
    private static final int MAX_TOKENS = 4096;

    private final StateManager states;
    private final ChatModel model;
    private final SkillRegistry skills;
    private final ContextPolicy contextPolicy;
    private final ToolExecutor tools;
    private final ConcurrentHashMap<String, TurnControl> running = new ConcurrentHashMap<>();

    public AgentLoop(StateManager states, ChatModel model, SkillRegistry skills, ContextPolicy contextPolicy,
                     ExecutorService skillExecutor) {
        this.states = Require.nonNull(states, "states");
        this.model = Require.nonNull(model, "model");
        this.skills = Require.nonNull(skills, "skills");
        this.contextPolicy = Require.nonNull(contextPolicy, "contextPolicy");
        this.tools = new ToolExecutor(states, skills, skillExecutor);
    }

    public ChatModel model() {
        return model;
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
            Usage usage = Usage.ZERO;
            int modelCalls = 0;
            int toolCalls = 0;
            while (true) {
                if (control.interrupted()) {
                    return end(sessionId, commandId, TurnResult.Outcome.INTERRUPTED, control.reason(), "", modelCalls, toolCalls, usage);
                }
                if (modelCalls >= config.maxIterations()) {
                    String reason = "max_iterations: the turn reached its limit of " + config.maxIterations() + " model calls";
                    return end(sessionId, commandId, TurnResult.Outcome.MAX_ITERATIONS, reason, "", modelCalls, toolCalls, usage);
                }
                State current = states.get(sessionId);
                List<Message> view = contextPolicy.view(current);
                TranscriptValidator.check(view, TranscriptValidator.Mode.MODEL_VIEW);
                ChatResponse response;
                try {
                    response = model.complete(new ChatRequest(config.model(), config.systemPrompt(), view,
                            skills.toolSpecs(config.skills()), MAX_TOKENS));
                } catch (ModelException e) {
                    end(sessionId, commandId, TurnResult.Outcome.INTERRUPTED, "model error: " + e.getMessage(), "",
                            modelCalls, toolCalls, usage);
                    throw e;
                }
                modelCalls++;
                usage = usage.plus(response.usage());
                Message reply = response.toMessage();
                List<ContentBlock.ToolUse> uses = reply.toolUses();
                if (uses.isEmpty()) {
                    String reason = response.stopReason().wireName();
                    states.update(sessionId, CheckpointSource.LOOP, commandId, st -> List.of(
                            new Event.AssistantMessageReceived(reply), new Event.TurnCompleted(reason)));
                    return result(sessionId, TurnResult.Outcome.COMPLETED, reply.text(), reason, modelCalls, toolCalls, usage);
                }
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
                    return end(sessionId, commandId, TurnResult.Outcome.INTERRUPTED,
                            "the model's reply was refused: " + e.getMessage(), "", modelCalls, toolCalls, usage);
                }
                toolCalls += uses.size();
                tools.runAll(sessionId, commandId, runnable, config, control);
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

    private TurnResult end(String sessionId, String commandId, TurnResult.Outcome outcome, String reason, String reply,
                           int modelCalls, int toolCalls, Usage usage) {
        states.update(sessionId, CheckpointSource.LOOP, commandId, st -> closingEvents(st, outcome, reason));
        return result(sessionId, outcome, reply, reason, modelCalls, toolCalls, usage);
    }

    private TurnResult result(String sessionId, TurnResult.Outcome outcome, String reply, String reason, int modelCalls,
                              int toolCalls, Usage usage) {
        return new TurnResult(sessionId, outcome, reply, reason, states.get(sessionId).seq(), modelCalls, toolCalls, usage);
    }

    /** Events that bring a running turn to rest: unanswered calls fail, then the turn ends. */
    static List<Event> closingEvents(State st, TurnResult.Outcome outcome, String reason) {
        if (st.isIdle()) {
            return List.of();
        }
        List<Event> events = new ArrayList<>();
        for (PendingToolCall p : st.pending()) {
            if (!p.answered()) {
                events.add(new Event.ToolCallFailed(p.toolUseId(), "cancelled: " + reason));
            }
        }
        events.add(outcome == TurnResult.Outcome.MAX_ITERATIONS ? new Event.TurnCompleted(reason) : new Event.TurnInterrupted(reason));
        return events;
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
