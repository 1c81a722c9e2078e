package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.TurnResult.Outcome;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a turn ends: its outcome and the reason recorded in {@code TurnCompleted} (every outcome but
 * {@link Outcome#INTERRUPTED}) or {@code TurnInterrupted}. A turn never ends with a call unanswered.
 */
public record TurnEnding(Outcome outcome, String reason) {

    /**
     * The limit that stops the turn before its next model call, if one does: an interrupt, the iteration
     * cap, or the token budget spent (the call that crosses the budget completes; none follows it).
     */
    public static Optional<TurnEnding> beforeModelCall(SessionConfig config, String interrupted, int modelCalls, Usage spent) {
        if (interrupted != null) {
            return Optional.of(new TurnEnding(Outcome.INTERRUPTED, interrupted));
        }
        if (modelCalls >= config.maxIterations()) {
            return Optional.of(new TurnEnding(Outcome.MAX_ITERATIONS, "max_iterations: the turn reached its limit of "
                    + config.maxIterations() + " model calls"));
        }
        if (config.turnTokenBudget() > 0 && spent.totalTokens() >= config.turnTokenBudget()) {
            return Optional.of(new TurnEnding(Outcome.TOKEN_BUDGET, "token_budget: the turn spent " + spent.totalTokens()
                    + " tokens over " + modelCalls + " model calls; its budget is " + config.turnTokenBudget()));
        }
        return Optional.empty();
    }

    /**
     * The ending a reply brings, if it brings one; empty when the loop goes on to run its tool calls. A
     * reply cut at max_tokens or refused ends the turn even if it asks for tools: a call in a cut reply may
     * have incomplete input, so none of them runs.
     */
    public static Optional<TurnEnding> ofReply(ChatResponse response, int maxOutputTokens) {
        boolean calls = !response.toMessage().toolUses().isEmpty();
        String notRun = calls ? "; its tool calls were not run" : "";
        return switch (response.stopReason()) {
            case MAX_TOKENS -> Optional.of(new TurnEnding(Outcome.MAX_TOKENS, "max_tokens: the reply reached the output limit of "
                    + maxOutputTokens + " tokens (maxOutputTokens) and was cut off" + notRun));
            case REFUSAL -> Optional.of(new TurnEnding(Outcome.REFUSED, "refusal: the model declined to continue" + notRun));
            case END_TURN, STOP_SEQUENCE, TOOL_USE -> calls ? Optional.empty()
                    : Optional.of(new TurnEnding(Outcome.COMPLETED, response.stopReason().wireName()));
        };
    }

    /** The step that records {@code reply} and this ending: the reply, a failure for each of its calls, the end. */
    public List<Event> events(Message reply) {
        List<Event> events = new ArrayList<>();
        events.add(new Event.AssistantMessageReceived(reply));
        for (ContentBlock.ToolUse u : reply.toolUses()) {
            events.add(new Event.ToolCallFailed(u.id(), "not run: " + reason));
        }
        events.add(end());
        return events;
    }

    /** Events that bring a running turn to rest: unanswered calls fail (cancelled), then this ending. */
    public List<Event> closing(State st) {
        return closing(st, "cancelled: " + reason, end());
    }

    /** Events that bring a running turn to rest: each unanswered call fails with {@code callFailure}, then {@code end}. */
    public static List<Event> closing(State st, String callFailure, Event end) {
        if (st.isIdle()) {
            return List.of();
        }
        List<Event> events = new ArrayList<>();
        for (PendingToolCall p : st.pending()) {
            if (!p.answered()) {
                events.add(new Event.ToolCallFailed(p.toolUseId(), callFailure));
            }
        }
        events.add(end);
        return events;
    }

    private Event end() {
        return outcome == Outcome.INTERRUPTED ? new Event.TurnInterrupted(reason) : new Event.TurnCompleted(reason);
    }
}
