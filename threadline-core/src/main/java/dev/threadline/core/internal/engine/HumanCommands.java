package dev.threadline.core.internal.engine;

import dev.threadline.core.internal.engine.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import dev.threadline.core.internal.engine.loop.AgentLoop;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.runtime.TurnResult;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionKey;
import java.util.List;

/**
 * The bodies of the commands by which a person resumes a suspended turn: approve (optionally with
 * edited arguments, validated against the skill's schema), deny, answer. Each runs inside a command
 * holding the session's lease, checks everything before it writes (bad input writes nothing and says
 * why), then continues the turn through {@link AgentLoop#resume}. Thread-safe (stateless over the engine).
 */
public final class HumanCommands {
    private final StateManager states;
    private final AgentLoop loop;

    private final Tracing tracing;

    public HumanCommands(StateManager states, AgentLoop loop, Tracing tracing) {
        this.states = states;
        this.loop = loop;
        this.tracing = tracing;
    }

    /** A person's decision on a waiting call, as a {@code threadline.approval} span around the turn it resumes. */
    private TurnResult decided(SessionKey key, String toolUseId, String decision, java.util.function.Supplier<TurnResult> resume) {
        Span span = tracing.start("threadline.approval", key);
        if (span.isRecording()) {
            span.setAttribute(Tracing.TOOL_CALL_ID, toolUseId);
            span.setAttribute("threadline.approval.decision", decision);
        }
        try (Scope scope = tracing.enter(span)) {
            return resume.get();
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    public TurnResult approve(SessionKey key, Cmd cmd, String toolUseId, JsonNode edited) {
        PendingToolCall p = awaited(key, toolUseId, PendingToolCall.Awaiting.APPROVAL);
        SessionConfig config = states.config(key);
        ContentBlock.ToolUse use = new ContentBlock.ToolUse(p.toolUseId(), p.name(), edited == null ? p.input() : edited);
        String problem = loop.tools().problem(use, config);
        if (problem != null) {
            throw edited != null ? new InvalidInputException("arguments", problem + "; nothing was recorded, the call still waits")
                    : new InvalidInputException("toolUseId", "call '" + toolUseId + "' cannot run now: " + problem + "; deny it instead");
        }
        return decided(key, toolUseId, edited == null ? "approved" : "approved_edited", () -> loop.resume(key, cmd,
                st -> List.of(new Event.ApprovalGiven(toolUseId, edited),
                        new Event.ToolCallStarted(toolUseId, p.name(), loop.tools().effectOf(p.name()))), List.of(use)));
    }

    public TurnResult deny(SessionKey key, Cmd cmd, String toolUseId, String reason) {
        awaited(key, toolUseId, PendingToolCall.Awaiting.APPROVAL);
        return decided(key, toolUseId, "denied", () -> loop.resume(key, cmd, st -> List.of(new Event.ApprovalDenied(toolUseId, reason)), List.of()));
    }

    public TurnResult answer(SessionKey key, Cmd cmd, String toolUseId, String text) {
        awaited(key, toolUseId, PendingToolCall.Awaiting.ANSWER);
        return decided(key, toolUseId, "answered", () -> loop.resume(key, cmd, st -> List.of(new Event.InputGiven(toolUseId, text)), List.of()));
    }

    /**
     * Sets the session's budget. A turn suspended for its budget continues when the new one leaves room (its result
     * is returned); otherwise the budget is recorded as an edit step and null is returned.
     *
     * @throws InvalidInputException when a turn waits for budget and {@code budget} leaves it none: nothing is written
     */
    public TurnResult setBudget(SessionKey key, Cmd cmd, dev.threadline.core.state.Budget budget) {
        State s = states.get(key);
        if (s.status() == dev.threadline.core.state.SessionStatus.BUDGET_EXCEEDED) {
            if (budget.reachedBy(s.usage())) {
                throw new InvalidInputException("budget", "the waiting turn needs more than the session has spent ("
                        + s.usage().totalTokens() + " tokens, cost " + dev.threadline.core.state.Budget.amount(s.usage().costMicros())
                        + "); a budget of " + budget.tokens() + " tokens and cost "
                        + dev.threadline.core.state.Budget.amount(budget.costMicros())
                        + " leaves it no room (0 is no limit); nothing was recorded");
            }
            return loop.resume(key, cmd, st -> List.of(new Event.BudgetSet(budget)), List.of());
        }
        states.update(key, dev.threadline.core.event.CheckpointSource.EDIT, cmd, st -> List.of(new Event.BudgetSet(budget)));
        return null;
    }

    /**
     * The waiting call, or an {@link InvalidInputException} saying why there is none (not waiting, already
     * answered, waiting for something else, unknown) and which calls do wait.
     */
    private PendingToolCall awaited(SessionKey key, String toolUseId, PendingToolCall.Awaiting what) {
        State s = states.get(key);
        String wanted = what == PendingToolCall.Awaiting.APPROVAL ? "approval" : "an answer";
        List<String> waiting = s.awaiting().stream().filter(p -> p.awaiting() == what).map(PendingToolCall::toolUseId).toList();
        for (PendingToolCall p : s.pending()) {
            if (p.toolUseId().equals(toolUseId)) {
                if (p.awaiting() == what) {
                    return p;
                }
                throw new InvalidInputException("toolUseId", "call '" + toolUseId + "' does not await " + wanted + " ("
                        + (p.answered() ? "it has a result" : p.waitsForAPerson() ? "it awaits " + (what == PendingToolCall.Awaiting.APPROVAL
                        ? "an answer" : "approval") : "it was approved and runs") + "); waiting for " + wanted + ": " + waiting);
            }
        }
        boolean known = s.toolUseIds().messageIndexOf(toolUseId) >= 0;
        throw new InvalidInputException("toolUseId", "call '" + toolUseId + "' does not await " + wanted + " ("
                + (known ? "it was answered already" : "no such call in this session") + "); waiting for " + wanted + ": " + waiting);
    }
}
