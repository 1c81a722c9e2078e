package dev.threadline.core.internal.state;

import dev.threadline.core.state.Compaction;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pure fold of events into {@link State}: {@code State apply(State, Event)}. Deterministic, no I/O,
 * no clock. An event that cannot follow the given state raises {@link InvalidEventException} and
 * produces nothing, so a decider's events are checked before they are appended.
 */
public final class Reducer {
    private Reducer() {}

    /** Folds one journalled event: position and step come from the envelope. */
    public static State apply(State state, StoredEvent stored) {
        State next = apply(state, stored.event());
        return next.with(stored.seq(), stored.step(), next.status(), next.variables(), next.pending(),
                next.usage(), next.contextStart(), next.compaction());
    }

    /** Folds a whole journal from the empty state. */
    public static State fold(Iterable<StoredEvent> events) {
        State s = State.EMPTY;
        for (StoredEvent e : events) {
            s = apply(s, e);
        }
        return s;
    }

    /** Applies one event; seq and step are left as they were (the envelope sets them). */
    public static State apply(State s, Event event) {
        return switch (event) {
            case Event.SessionCreated c -> s;
            case Event.BranchCreated b -> s;
            case Event.UserMessageReceived u -> {
                requireNoPending(s, u);
                yield s.withMessage(u.message(), SessionStatus.RUNNING, s.pending(), s.usage());
            }
            case Event.AssistantMessageReceived a -> {
                requireNoPending(s, a);
                Message m = a.message();
                List<PendingToolCall> pending = pendingCalls(s, a);
                Usage usage = m.usage() == null ? s.usage() : s.usage().plus(m.usage());
                yield s.withMessage(m, SessionStatus.RUNNING, pending, usage);
            }
            case Event.ToolCallStarted st -> {
                PendingToolCall p = requirePending(s, st.toolUseId(), st.type());
                if (p.started() || p.answered()) {
                    throw new InvalidEventException(st.type(), "tool call '" + st.toolUseId() + "' was already started");
                }
                if (p.waitsForAPerson()) {
                    throw new InvalidEventException(st.type(), "tool call '" + st.toolUseId() + "' awaits "
                            + (p.awaiting() == PendingToolCall.Awaiting.APPROVAL ? "approval" : "the user's answer")
                            + "; it cannot start before that");
                }
                yield withPending(s, replace(s.pending(), p.markStarted()));
            }
            case Event.ApprovalDenied d -> {
                HumanSteps.requireAwaited(s, d, PendingToolCall.Awaiting.APPROVAL);
                yield HumanSteps.resumed(applyResult(s, d), true);
            }
            case Event.InputGiven g -> {
                HumanSteps.requireAwaited(s, g, PendingToolCall.Awaiting.ANSWER);
                yield HumanSteps.resumed(applyResult(s, g), false);
            }
            case Event.ToolCallEnded end -> applyResult(s, end);
            case Event.ApprovalRequested r -> HumanSteps.request(s, r.type(), r.toolUseId(), r.name(), PendingToolCall.Awaiting.APPROVAL);
            case Event.InputRequested r -> HumanSteps.request(s, r.type(), r.toolUseId(), null, PendingToolCall.Awaiting.ANSWER);
            case Event.ApprovalGiven g -> HumanSteps.approve(s, g);
            case Event.TurnSuspended t -> HumanSteps.suspend(s, t);
            case Event.StateEdited e -> EditRules.apply(s, e);
            case Event.TurnRolledBack r -> Rollbacks.apply(s, r, true);
            case Event.EffectCompensated c -> {
                if (s.toolUseIds().messageIndexOf(c.toolUseId()) < 0) {
                    throw new InvalidEventException(c.type(), "no call '" + c.toolUseId() + "' is in the transcript");
                }
                yield s;
            }
            case Event.VariablesChanged v -> {
                if (v.scope() != VariableScope.SESSION) {
                    yield s; // user/app scopes live in the store's shared tables; the event is their audit trail
                }
                Map<String, JsonNode> vars = new HashMap<>(s.variables());
                v.removed().forEach(vars::remove);
                vars.putAll(v.set());
                yield s.with(s.seq(), s.step(), s.status(), vars, s.pending(), s.usage(), s.contextStart(), s.compaction());
            }
            case Event.TurnCompleted t -> {
                requireNoPending(s, t);
                yield s.with(s.seq(), s.step(), SessionStatus.IDLE, s.variables(), s.pending(), s.usage(),
                        s.contextStart(), s.compaction());
            }
            case Event.TurnInterrupted t -> {
                requireNoPending(s, t);
                yield s.with(s.seq(), s.step(), SessionStatus.IDLE, s.variables(), s.pending(), s.usage(),
                        s.contextStart(), s.compaction());
            }
            case Event.ContextCompacted c -> {
                if (c.boundary() > s.messages().size() || c.boundary() < s.contextStart()) {
                    throw new InvalidEventException(c.type(), "boundary " + c.boundary() + " is outside the context ["
                            + s.contextStart() + ", " + s.messages().size() + "]");
                }
                if (c.boundary() < s.messages().size() && s.messages().get(c.boundary()).role() != dev.threadline.core.model.Role.USER) {
                    throw new InvalidEventException(c.type(), "boundary " + c.boundary() + " is not at a user message;"
                            + " a compaction must never separate a tool_use from its tool_result");
                }
                if (c.boundary() == s.messages().size() && !s.pending().isEmpty()) {
                    throw new InvalidEventException(c.type(), "boundary " + c.boundary() + " would summarise the tool calls "
                            + s.pending().stream().map(PendingToolCall::toolUseId).toList() + " but not their coming results");
                }
                yield s.with(s.seq(), s.step(), s.status(), s.variables(), s.pending(), s.usage().plus(c.usage()),
                        s.contextStart(), new Compaction(c.summary(), c.boundary()));
            }
            case Event.Cleared c -> {
                requireNoPending(s, c);
                if (s.status() == SessionStatus.RUNNING) {
                    throw new InvalidEventException(c.type(), "a turn is running: clearing now would leave the model"
                            + " a context without the request it is answering; clear between turns");
                }
                yield s.with(s.seq(), s.step(), s.status(), s.variables(), s.pending(), s.usage(), s.messages().size(), null)
                        .withRecalled(List.of());
            }
            case Event.MessageSteered m -> {
                if (s.status() == SessionStatus.IDLE) {
                    throw new InvalidEventException(m.type(), "no turn runs to steer; the message starts a turn instead");
                }
                if (m.message().role() != dev.threadline.core.model.Role.USER || m.message().text().isBlank()) {
                    throw new InvalidEventException(m.type(), "a steered message is a user message with text");
                }
                List<Message> waiting = new java.util.ArrayList<>(s.steered());
                waiting.add(m.message());
                yield s.withSteered(waiting);
            }
            case Event.SteeringDelivered d -> {
                if (!d.messages().equals(s.steered())) {
                    throw new InvalidEventException(d.type(), "it delivers " + d.messages().size() + " message(s) but "
                            + s.steered().size() + " wait, or others; every steered message is delivered once, in order");
                }
                requireNoPending(s, d);
                if (s.isSuspended()) {
                    throw new InvalidEventException(d.type(), "the turn waits for a person; steered messages join it when it runs again");
                }
                yield delivered(s, d).withSteered(List.of());
            }
            case Event.BudgetSet b -> {
                SessionStatus status = s.status() == SessionStatus.BUDGET_EXCEEDED && !b.budget().reachedBy(s.usage())
                        ? SessionStatus.RUNNING : s.status(); // a turn waiting for budget runs again once there is some
                yield s.withBudget(b.budget(), status);
            }
            case Event.ContextRecalled r -> {
                for (dev.threadline.core.state.RecalledMessage m : r.messages()) {
                    if (m.message() < s.contextStart() || m.message() >= s.messages().size()) {
                        throw new InvalidEventException(r.type(), "message " + m.message() + " is outside the context ["
                                + s.contextStart() + ", " + s.messages().size() + ")");
                    }
                }
                yield s.withRecalled(r.messages());
            }
        };
    }

    /**
     * Applies only what shapes the transcript (messages and the pending results that complete a tool
     * message). Used when loading: with a snapshot for everything else, events before the snapshot
     * are folded through this alone.
     */
    public static State applyTranscriptOnly(State s, Event event) {
        if (event instanceof Event.StateEdited e) {
            return EditRules.transcriptOnly(s, e); // its status check needs the whole state; the messages are all that matter here
        }
        if (event instanceof Event.TurnRolledBack r) {
            return Rollbacks.apply(s, r, false);
        }
        if (event instanceof Event.SteeringDelivered d) {
            return delivered(s, d); // which messages waited is not part of the transcript: they were checked when recorded
        }
        return event.touchesTranscript() ? apply(s, event) : s;
    }

    /** {@code s} with the delivered steered messages appended, in order; the turn runs. */
    private static State delivered(State s, Event.SteeringDelivered d) {
        State next = s;
        for (Message msg : d.messages()) {
            next = next.withMessage(msg, SessionStatus.RUNNING, List.of(), next.usage());
        }
        return next;
    }

    private static State applyResult(State s, Event.ToolCallEnded end) {
        PendingToolCall p = requirePending(s, end.toolUseId(), end.type());
        if (p.answered()) {
            throw new InvalidEventException(end.type(), "tool call '" + end.toolUseId() + "' already has a result");
        }
        if (!(end instanceof Event.ApprovalDenied) && !(end instanceof Event.InputGiven)) {
            HumanSteps.refuseIfAwaiting(p, end);
        }
        ContentBlock.ToolResult result = new ContentBlock.ToolResult(end.toolUseId(), end.resultContent(), end.isError());
        List<PendingToolCall> pending = replace(s.pending(), p.withResult(result));
        for (int i = 0; i < pending.size(); i++) { // plain loops: this runs for every tool result of every load
            if (!pending.get(i).answered()) {
                return withPending(s, pending);
            }
        }
        pending.sort(Comparator.comparingInt(PendingToolCall::index)); // already in order: one pass
        List<ContentBlock.ToolResult> results = new ArrayList<>(pending.size());
        for (int i = 0; i < pending.size(); i++) {
            results.add(pending.get(i).result());
        }
        return s.withMessage(Message.toolResults(results), s.status(), List.of(), s.usage());
    }

    static State withPending(State s, List<PendingToolCall> pending) {
        return s.with(s.seq(), s.step(), s.status(), s.variables(), pending, s.usage(), s.contextStart(), s.compaction());
    }

    /**
     * The pending calls of an assistant message, checking that each tool_use id is new: not repeated
     * in the message and not used anywhere earlier in the session (the state's id index, O(1) each).
     */
    private static List<PendingToolCall> pendingCalls(State s, Event.AssistantMessageReceived a) {
        List<ContentBlock> content = a.message().content();
        List<PendingToolCall> pending = null;
        for (int b = 0; b < content.size(); b++) { // plain loops: this runs for every reply of every load
            if (!(content.get(b) instanceof ContentBlock.ToolUse u)) {
                continue;
            }
            if (pending == null) {
                pending = new ArrayList<>(4);
            }
            for (int k = 0; k < pending.size(); k++) {
                if (pending.get(k).toolUseId().equals(u.id())) {
                    throw new InvalidEventException(a.type(), "tool_use id '" + u.id() + "' appears twice in one message");
                }
            }
            int earlier = s.toolUseIds().messageIndexOf(u.id());
            if (earlier >= 0) {
                throw new InvalidEventException(a.type(), "tool_use id '" + u.id() + "' was already used in this session"
                        + " (message " + earlier + "); tool_use ids must be unique over the whole history");
            }
            pending.add(new PendingToolCall(u.id(), u.name(), u.input(), pending.size(), false, null));
        }
        return pending == null ? List.of() : pending;
    }

    static List<PendingToolCall> replace(List<PendingToolCall> pending, PendingToolCall updated) {
        List<PendingToolCall> out = new ArrayList<>(pending.size());
        for (PendingToolCall p : pending) {
            out.add(p.toolUseId().equals(updated.toolUseId()) ? updated : p);
        }
        return out;
    }

    static PendingToolCall requirePending(State s, String toolUseId, String type) {
        for (PendingToolCall p : s.pending()) {
            if (p.toolUseId().equals(toolUseId)) {
                return p;
            }
        }
        throw new InvalidEventException(type, "no pending tool call has id '" + toolUseId + "'");
    }

    private static void requireNoPending(State s, Event e) {
        if (!s.pending().isEmpty()) {
            throw new InvalidEventException(e.type(), s.pending().size() + " tool call(s) are still unanswered: "
                    + s.pending().stream().map(PendingToolCall::toolUseId).toList());
        }
    }
}
