package dev.threadline.core.internal.engine;

import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.TurnResult.Outcome;
import java.util.List;

/**
 * The outcome of a turn read back from its journal events, for a repeated command id: the same
 * outcome, reply, reason, end seq, model calls, tool calls and usage the first run returned. Stateless.
 */
public final class TurnReplay {
    private static final String SUPERSEDED = "superseded:";

    private TurnReplay() {}

    /**
     * The result of the turn (or resumption) whose first step starts {@code events}: up to its end or
     * suspension, skipping the close of a suspended turn that its new message superseded.
     */
    public static TurnResult of(String sessionId, List<StoredEvent> events) {
        String reply = "";
        int modelCalls = 0;
        int toolCalls = 0;
        Usage usage = Usage.ZERO;
        boolean seenUser = false;
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i).event();
            if (e instanceof Event.UserMessageReceived) {
                if (seenUser) {
                    break; // the next turn
                }
                seenUser = true;
            }
            switch (e) {
                case Event.AssistantMessageReceived a -> {
                    modelCalls++;
                    toolCalls += a.message().toolUses().size();
                    usage = usage.plus(a.message().usage());
                    reply = a.message().text();
                }
                case Event.ContextCompacted c -> usage = usage.plus(c.usage());
                case Event.TurnCompleted t -> {
                    Outcome o = outcome(t.reason());
                    boolean replied = o == Outcome.COMPLETED || o == Outcome.MAX_TOKENS || o == Outcome.REFUSED;
                    return new TurnResult(sessionId, o, replied ? reply : "", t.reason(), events.get(i).seq(), modelCalls, toolCalls, usage);
                }
                case Event.TurnSuspended t -> {
                    Outcome o = t.reason().startsWith("awaiting_approval") ? Outcome.AWAITING_APPROVAL
                            : t.reason().startsWith("budget_exceeded") ? Outcome.BUDGET_EXCEEDED : Outcome.AWAITING_INPUT;
                    return new TurnResult(sessionId, o, "", t.reason(), events.get(i).seq(), modelCalls, toolCalls, usage);
                }
                case Event.TurnInterrupted t when t.reason().startsWith(SUPERSEDED) -> { } // the suspended turn a new message closed
                case Event.TurnInterrupted t -> {
                    return new TurnResult(sessionId, Outcome.INTERRUPTED, "", t.reason(), events.get(i).seq(), modelCalls, toolCalls, usage);
                }
                default -> { }
            }
        }
        long last = events.isEmpty() ? 0 : events.get(events.size() - 1).seq();
        return new TurnResult(sessionId, Outcome.INTERRUPTED, "", "the turn has not ended", last, modelCalls, toolCalls, usage);
    }

    /** The outcome a {@code TurnCompleted} reason stands for (reasons start with the limit's name). */
    public static Outcome outcome(String reason) {
        if (reason.startsWith("max_iterations")) {
            return Outcome.MAX_ITERATIONS;
        }
        if (reason.startsWith("max_tokens")) {
            return Outcome.MAX_TOKENS;
        }
        if (reason.startsWith("refusal")) {
            return Outcome.REFUSED;
        }
        if (reason.startsWith("token_budget")) {
            return Outcome.TOKEN_BUDGET;
        }
        if (reason.startsWith("context_overflow")) {
            return Outcome.CONTEXT_OVERFLOW;
        }
        return Outcome.COMPLETED;
    }
}
