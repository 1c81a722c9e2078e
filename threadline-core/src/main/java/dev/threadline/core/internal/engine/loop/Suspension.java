package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.event.Event;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;

/**
 * The events that suspend a turn for a person, and those that close a suspended turn when the user
 * sends a new message instead of answering. Stateless.
 */
public final class Suspension {
    public static final String SUPERSEDED = "the user sent a new message instead";
    /** How the reason of a suspension for the session's budget starts (the status's wire name). */
    public static final String BUDGET_EXCEEDED = "budget_exceeded";

    private Suspension() {}

    /** The suspension of a turn whose calls are all answered or waiting; the reason starts with the status. */
    public static Event.TurnSuspended of(State s) {
        List<String> approvals = new ArrayList<>();
        List<String> questions = new ArrayList<>();
        for (PendingToolCall p : s.awaiting()) {
            if (p.awaiting() == PendingToolCall.Awaiting.APPROVAL) {
                approvals.add(p.toolUseId() + " (" + p.name() + ")");
            } else {
                questions.add(p.toolUseId());
            }
        }
        if (!approvals.isEmpty()) {
            return new Event.TurnSuspended("awaiting_approval: " + approvals.size() + " tool call(s) wait for approval: "
                    + String.join(", ", approvals) + (questions.isEmpty() ? "" : "; questions wait for answers: " + questions));
        }
        return new Event.TurnSuspended("awaiting_input: the model asked the user (" + String.join(", ", questions)
                + ") and waits for the answer");
    }

    /**
     * For a suspended turn: each waiting call is denied (approval) or failed (question) because the user
     * sent a new message, then the turn ends as interrupted; nothing for any other state.
     */
    public static List<Event> superseding(State s) {
        if (!s.isSuspended()) {
            return List.of();
        }
        List<Event> events = new ArrayList<>();
        for (PendingToolCall p : s.awaiting()) {
            events.add(p.awaiting() == PendingToolCall.Awaiting.APPROVAL
                    ? new Event.ApprovalDenied(p.toolUseId(), SUPERSEDED)
                    : new Event.ToolCallFailed(p.toolUseId(), "not answered: " + SUPERSEDED));
        }
        events.add(new Event.TurnInterrupted("superseded: a new message arrived while the turn waited for the user"));
        return events;
    }
}
