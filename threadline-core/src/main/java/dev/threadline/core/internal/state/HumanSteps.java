package dev.threadline.core.internal.state;

import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.Event;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.PendingToolCall.Awaiting;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;

/**
 * The reducer's rules for a turn that waits for a person: a call is marked awaiting approval or an
 * answer while the turn runs, the turn suspends once every call is answered or awaiting, and a
 * person's approval, denial or answer resumes it. Nothing runs an awaiting call: it cannot start,
 * complete or time out, only be approved, denied, answered, or failed when the turn is closed. Pure.
 */
final class HumanSteps {
    private HumanSteps() {}

    /** ApprovalRequested or InputRequested: a not yet started call of the running turn starts to wait. */
    static State request(State s, String type, String toolUseId, String name, Awaiting what) {
        requireStatus(s, type, SessionStatus.RUNNING, "a call can wait for a person only while its turn runs");
        PendingToolCall p = Reducer.requirePending(s, toolUseId, type);
        if (name != null && !p.name().equals(name)) {
            throw new InvalidEventException(type, "tool call '" + toolUseId + "' calls " + p.name() + ", not " + name);
        }
        if (p.started() || p.answered() || p.waitsForAPerson()) {
            throw new InvalidEventException(type, "tool call '" + toolUseId + "' already "
                    + (p.answered() ? "has a result" : p.started() ? "started" : "awaits " + p.awaiting().name().toLowerCase()));
        }
        return Reducer.withPending(s, Reducer.replace(s.pending(), p.awaiting(what, p.input())));
    }

    /** ApprovalGiven: a suspended turn resumes and the call may start, with the approved arguments. */
    static State approve(State s, Event.ApprovalGiven g) {
        PendingToolCall p = awaited(s, g.type(), g.toolUseId(), Awaiting.APPROVAL);
        State next = Reducer.withPending(s, Reducer.replace(s.pending(), p.awaiting(null, g.arguments() == null ? p.input() : g.arguments())));
        return withStatus(next, SessionStatus.RUNNING);
    }

    /** ApprovalDenied or InputGiven: checks the call awaited it; the caller folds the result. */
    static void requireAwaited(State s, Event.ToolCallEnded end, Awaiting what) {
        awaited(s, end.type(), end.toolUseId(), what);
    }

    /** An answer from a person resumes the turn: running again, one more denial counted for a denial. */
    static State resumed(State folded, boolean denial) {
        State next = withStatus(folded, SessionStatus.RUNNING);
        return denial ? next.withPermissionDenials(next.permissionDenials() + 1) : next;
    }

    /** A result for a call that waits for a person, other than a failure when its turn is closed, is refused. */
    static void refuseIfAwaiting(PendingToolCall p, Event.ToolCallEnded end) {
        if (p.waitsForAPerson() && !(end instanceof Event.ToolCallFailed)) {
            throw new InvalidEventException(end.type(), "tool call '" + p.toolUseId() + "' awaits "
                    + (p.awaiting() == Awaiting.APPROVAL ? "approval; it cannot have run" : "the user's answer"));
        }
    }

    /** TurnSuspended: the running turn stops; every call is answered or waits for a person, and one at least waits. */
    /** How the reason of a suspension for the session's budget starts. */
    public static final String BUDGET_EXCEEDED = "budget_exceeded";

    static State suspend(State s, Event.TurnSuspended t) {
        requireStatus(s, t.type(), SessionStatus.RUNNING, "only a running turn can be suspended");
        if (t.reason().startsWith(BUDGET_EXCEEDED)) {
            if (s.pending().stream().anyMatch(p -> !p.answered())) {
                throw new InvalidEventException(t.type(), "tool calls are still open; a turn stops for its budget only between model calls");
            }
            return withStatus(s, SessionStatus.BUDGET_EXCEEDED);
        }
        List<String> running = new ArrayList<>();
        boolean approval = false;
        boolean answer = false;
        for (PendingToolCall p : s.pending()) {
            if (p.awaiting() == Awaiting.APPROVAL) {
                approval = true;
            } else if (p.awaiting() == Awaiting.ANSWER) {
                answer = true;
            } else if (!p.answered()) {
                running.add(p.toolUseId());
            }
        }
        if (!running.isEmpty()) {
            throw new InvalidEventException(t.type(), "tool calls " + running + " have no result yet; a turn suspends only"
                    + " once every call is answered or waits for a person");
        }
        if (!approval && !answer) {
            throw new InvalidEventException(t.type(), "no tool call waits for a person; the turn has nothing to suspend for");
        }
        return withStatus(s, approval ? SessionStatus.AWAITING_APPROVAL : SessionStatus.AWAITING_INPUT);
    }

    private static PendingToolCall awaited(State s, String type, String toolUseId, Awaiting what) {
        if (!s.isSuspended() && s.status() != SessionStatus.RUNNING) {
            throw new InvalidEventException(type, "no turn is suspended (the session is " + s.status().wireName() + ")");
        }
        PendingToolCall p = Reducer.requirePending(s, toolUseId, type);
        if (p.awaiting() != what) {
            throw new InvalidEventException(type, "tool call '" + toolUseId + "' does not await "
                    + (what == Awaiting.APPROVAL ? "approval" : "an answer")
                    + (p.answered() ? " (it has a result)" : p.waitsForAPerson() ? " (it awaits " + p.awaiting().name().toLowerCase() + ")" : ""));
        }
        return p;
    }

    private static void requireStatus(State s, String type, SessionStatus status, String why) {
        if (s.status() != status) {
            throw new InvalidEventException(type, why + " (the session is " + s.status().wireName() + ")");
        }
    }

    private static State withStatus(State s, SessionStatus status) {
        return s.with(s.seq(), s.step(), status, s.variables(), s.pending(), s.usage(), s.contextStart(), s.compaction());
    }
}
