// Over 400 lines on purpose: the sealed set of journal events, one small record each, is the stored form's
// single list (its JSON subtypes); splitting it would scatter that list.
package dev.threadline.core.event;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.model.Usage;
import dev.threadline.core.skill.Effect;
import dev.threadline.core.state.Compaction;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import java.util.List;
import java.util.Map;

/**
 * One recorded change of a session, as appended to its journal. Events are facts: the reducer folds
 * them into {@link dev.threadline.core.state.State}; nothing else changes state. The JSON type name
 * of each event ({@link #type()}) is stored beside it and never renamed.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Event.SessionCreated.class, name = "SessionCreated"),
    @JsonSubTypes.Type(value = Event.BranchCreated.class, name = "BranchCreated"),
    @JsonSubTypes.Type(value = Event.UserMessageReceived.class, name = "UserMessageReceived"),
    @JsonSubTypes.Type(value = Event.AssistantMessageReceived.class, name = "AssistantMessageReceived"),
    @JsonSubTypes.Type(value = Event.ToolCallStarted.class, name = "ToolCallStarted"),
    @JsonSubTypes.Type(value = Event.ToolCallCompleted.class, name = "ToolCallCompleted"),
    @JsonSubTypes.Type(value = Event.ToolCallFailed.class, name = "ToolCallFailed"),
    @JsonSubTypes.Type(value = Event.ToolCallTimedOut.class, name = "ToolCallTimedOut"),
    @JsonSubTypes.Type(value = Event.VariablesChanged.class, name = "VariablesChanged"),
    @JsonSubTypes.Type(value = Event.TurnCompleted.class, name = "TurnCompleted"),
    @JsonSubTypes.Type(value = Event.TurnInterrupted.class, name = "TurnInterrupted"),
    @JsonSubTypes.Type(value = Event.ContextCompacted.class, name = "ContextCompacted"),
    @JsonSubTypes.Type(value = Event.Cleared.class, name = "Cleared"),
    @JsonSubTypes.Type(value = Event.ContextRecalled.class, name = "ContextRecalled"),
    @JsonSubTypes.Type(value = Event.BudgetSet.class, name = "BudgetSet"),
    @JsonSubTypes.Type(value = Event.MessageSteered.class, name = "MessageSteered"),
    @JsonSubTypes.Type(value = Event.SteeringDelivered.class, name = "SteeringDelivered"),
    @JsonSubTypes.Type(value = Event.ApprovalRequested.class, name = "ApprovalRequested"),
    @JsonSubTypes.Type(value = Event.ApprovalGiven.class, name = "ApprovalGiven"),
    @JsonSubTypes.Type(value = Event.ApprovalDenied.class, name = "ApprovalDenied"),
    @JsonSubTypes.Type(value = Event.InputRequested.class, name = "InputRequested"),
    @JsonSubTypes.Type(value = Event.InputGiven.class, name = "InputGiven"),
    @JsonSubTypes.Type(value = Event.TurnSuspended.class, name = "TurnSuspended"),
    @JsonSubTypes.Type(value = Event.StateEdited.class, name = "StateEdited"),
    @JsonSubTypes.Type(value = Event.TurnRolledBack.class, name = "TurnRolledBack"),
    @JsonSubTypes.Type(value = Event.EffectCompensated.class, name = "EffectCompensated")
})
public sealed interface Event {

    /** The stable type name stored with the event. */
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }

    /**
     * Whether this event can change the transcript (used to bound replay on load): the messages and the
     * calls' results; the approvals, questions and suspensions that change which pending calls may be
     * answered (so loading replays them with the results); a rollback; an edit that appends a message; the
     * delivery of steered messages.
     */
    @JsonIgnore
    default boolean touchesTranscript() {
        if (this instanceof StateEdited edited) {
            return edited.edits().stream().anyMatch(e -> e instanceof Edit.AppendMessage);
        }
        return this instanceof UserMessageReceived || this instanceof AssistantMessageReceived || this instanceof ToolCallEnded
                || this instanceof ApprovalRequested || this instanceof ApprovalGiven || this instanceof InputRequested
                || this instanceof TurnSuspended || this instanceof TurnRolledBack || this instanceof SteeringDelivered;
    }

    /** First event of every root session. */
    record SessionCreated(SessionInfo session) implements Event {
        public SessionCreated {
            Require.nonNull(session, "session");
        }
    }

    /**
     * First event of a branch (fork or rewind): the branch shares its parent's journal up to
     * {@code parentSeq}, and its own events start right after.
     */
    record BranchCreated(String parentId, long parentSeq, String reason) implements Event {
        public BranchCreated {
            Require.nonBlank(parentId, "parentId");
            Require.argument(parentSeq >= 1, "parentSeq", "must be at least 1");
            Require.nonBlank(reason, "reason");
        }
    }

    /** A user message appended to the transcript. */
    record UserMessageReceived(Message message) implements Event {
        public UserMessageReceived {
            Require.nonNull(message, "message");
            Require.argument(message.role() == Role.USER, "message.role", "must be user");
        }
    }

    /** A model reply appended to the transcript; its tool_use blocks become pending calls. */
    record AssistantMessageReceived(Message message) implements Event {
        public AssistantMessageReceived {
            Require.nonNull(message, "message");
            Require.argument(message.role() == Role.ASSISTANT, "message.role", "must be assistant");
        }
    }

    /**
     * A requested tool call began running. {@code effect} is what its skill declared when it started
     * (null in events recorded before skills declared effects): the journal's ledger of side effects.
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    record ToolCallStarted(String toolUseId, String name, Effect effect) implements Event {
        @com.fasterxml.jackson.annotation.JsonCreator
        public ToolCallStarted {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonBlank(name, "name");
        }

        /** A start with no declared effect. */
        public ToolCallStarted(String toolUseId, String name) {
            this(toolUseId, name, null);
        }
    }

    /** Common shape of the three events that answer a tool call; its implementations are immutable records. */
    sealed interface ToolCallEnded extends Event {
        /** The tool_use id of the call this event answers. */
        String toolUseId();

        /** The content the model sees in the tool_result block. */
        String resultContent();

        /** Whether the tool_result block is an error result. */
        boolean isError();
    }

    /** A tool call answered with its result ({@code error}: the skill reported an error). */
    record ToolCallCompleted(String toolUseId, String content, boolean error) implements ToolCallEnded {
        public ToolCallCompleted {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonNull(content, "content");
        }

        @Override
        public String resultContent() {
            return content;
        }

        @Override
        public boolean isError() {
            return error;
        }
    }

    /** The call failed: invalid arguments, the skill threw, it was cancelled or the process died. */
    record ToolCallFailed(String toolUseId, String reason) implements ToolCallEnded {
        public ToolCallFailed {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonBlank(reason, "reason");
        }

        @Override
        public String resultContent() {
            return "error: " + reason;
        }

        @Override
        @JsonIgnore // always true here, not a stored field
        public boolean isError() {
            return true;
        }
    }

    /** A tool call that did not answer within {@code timeoutMillis}: the model sees an error result. */
    record ToolCallTimedOut(String toolUseId, long timeoutMillis) implements ToolCallEnded {
        public ToolCallTimedOut {
            Require.nonBlank(toolUseId, "toolUseId");
        }

        @Override
        public String resultContent() {
            return "error: the tool did not finish within " + timeoutMillis + " ms and was cancelled";
        }

        @Override
        @JsonIgnore // always true here, not a stored field
        public boolean isError() {
            return true;
        }
    }

    /**
     * Variables written in one scope: {@code set} entries are put, {@code removed} names deleted.
     * Session-scoped changes fold into State; user and app scopes are also kept in the store's shared
     * tables (this event is their audit trail). Temp variables never reach the journal.
     */
    record VariablesChanged(VariableScope scope, Map<String, JsonNode> set, List<String> removed) implements Event {
        public VariablesChanged {
            Require.nonNull(scope, "scope");
            Require.argument(scope != VariableScope.TEMP, "scope", "temp variables are never journalled");
            set = set == null ? Map.of() : Map.copyOf(set);
            removed = removed == null ? List.of() : List.copyOf(removed);
        }
    }

    /** The turn ended normally or at a limit; the session is idle again. */
    record TurnCompleted(String reason) implements Event {
        public TurnCompleted {
            Require.nonBlank(reason, "reason");
        }
    }

    /** The turn was cut short (interrupt, crash recovery, model error); the session is idle again. */
    record TurnInterrupted(String reason) implements Event {
        public TurnInterrupted {
            Require.nonBlank(reason, "reason");
        }
    }

    /**
     * The messages before index {@code boundary} are summarised by {@code summary} in the model's view.
     * The original messages stay in the journal. {@code usage} is what the model call that wrote the
     * summary cost (null for a summary written by hand or recorded before schema version 2); it is
     * added to the session's usage totals.
     */
    record ContextCompacted(String summary, int boundary, Usage usage) implements Event {
        public ContextCompacted {
            Require.nonNull(summary, "summary");
            Require.argument(boundary >= 0, "boundary", "must not be negative");
        }

        /** A compaction with no recorded usage (a summary written by hand). */
        public ContextCompacted(String summary, int boundary) {
            this(summary, boundary, null);
        }
    }

    /** The model's context starts afresh after this point (refused while a turn runs); nothing is deleted. */
    record Cleared() implements Event {
    }

    /**
     * The session's recall chose these earlier messages (in transcript order) for the model's view,
     * after the summary, from the next model call on (ADR 0042); empty: none any more. Recorded when the
     * choice changes, so a reload folds the same view. The messages stay where they are in the journal.
     */
    record ContextRecalled(List<dev.threadline.core.state.RecalledMessage> messages) implements Event {
        public ContextRecalled {
            messages = messages == null ? List.of() : List.copyOf(messages);
        }
    }

    /**
     * A user message for the running turn (double texting {@code steer}), journalled when it arrives; the state
     * holds it apart ({@code State.steered}) until {@link SteeringDelivered} puts it in the transcript, so it never
     * lands between a tool call and its result.
     */
    record MessageSteered(Message message) implements Event {
        public MessageSteered {
            Require.nonNull(message, "message");
        }
    }

    /**
     * The steered messages waiting in the state ({@code messages}, all of them, in the order they came) join the
     * transcript before the turn's next model call; on an idle session they start a turn.
     */
    record SteeringDelivered(List<Message> messages) implements Event {
        public SteeringDelivered {
            Require.argument(messages != null && !messages.isEmpty(), "messages", "at least one steered message is delivered");
            messages = List.copyOf(messages);
        }
    }

    /**
     * The session's budget from now on ({@link dev.threadline.core.state.Budget}; {@code NONE}: no limit), over
     * the one its config set. Recorded at any time; a turn suspended with {@code budget_exceeded} runs again when
     * the new budget is above what the session has spent.
     */
    record BudgetSet(dev.threadline.core.state.Budget budget) implements Event {
        public BudgetSet {
            Require.nonNull(budget, "budget");
        }
    }

    /**
     * A call of the last assistant message needs a person's approval before it runs (its skill's
     * policy or the session config says so). Nothing runs it until {@link ApprovalGiven}.
     */
    record ApprovalRequested(String toolUseId, String name, JsonNode arguments) implements Event {
        public ApprovalRequested {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonBlank(name, "name");
        }
    }

    /**
     * A person approved an awaiting call; it runs next (a {@link ToolCallStarted} follows in the same
     * step). {@code arguments} are the ones a person edited in place of the model's, or null for the
     * model's own; the result then says the arguments were edited.
     */
    record ApprovalGiven(String toolUseId, JsonNode arguments) implements Event {
        public ApprovalGiven {
            Require.nonBlank(toolUseId, "toolUseId");
        }
    }

    /** A person denied an awaiting call: it never runs, and its result is this error (counted in permissionDenials). */
    record ApprovalDenied(String toolUseId, String reason) implements ToolCallEnded {
        public ApprovalDenied {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonBlank(reason, "reason");
        }

        @Override
        public String resultContent() {
            return "denied by the user: " + reason;
        }

        @Override
        @JsonIgnore // always true here, not a stored field
        public boolean isError() {
            return true;
        }
    }

    /** The model asked the user a question (the {@code ask_user} skill); the user's answer will be the call's result. */
    record InputRequested(String toolUseId, String question) implements Event {
        public InputRequested {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonNull(question, "question");
        }
    }

    /** The user answered a question the model asked: the answer is the call's result. */
    record InputGiven(String toolUseId, String answer) implements ToolCallEnded {
        public InputGiven {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonNull(answer, "answer");
        }

        @Override
        public String resultContent() {
            return answer;
        }

        @Override
        @JsonIgnore // always false here, not a stored field
        public boolean isError() {
            return false;
        }
    }

    /**
     * The turn stopped to wait for a person: every call of the last assistant message is answered or
     * awaiting approval or an answer. The session is {@code awaiting_approval} (or {@code awaiting_input}
     * when only questions wait) until approve, deny or answer resumes it, in any process. The reason
     * starts with the status it leads to.
     */
    record TurnSuspended(String reason) implements Event {
        public TurnSuspended {
            Require.nonBlank(reason, "reason");
        }
    }

    /**
     * A person changed the session between turns: typed edits applied together, as one step, with who
     * made them and why. The reducer refuses the whole step if any edit would break an invariant.
     */
    record StateEdited(String author, String reason, List<Edit> edits) implements Event {
        public StateEdited {
            Require.nonBlank(author, "author");
            reason = reason == null ? "" : reason;
            Require.argument(edits != null && !edits.isEmpty(), "edits", "at least one edit is needed");
            edits = List.copyOf(edits);
        }
    }

    /**
     * Double texting with {@code rollback}: what the session recorded after {@code toSeq} (the turn a
     * new message rolled back) was set aside on the side branch {@code sideBranch}, a fork that keeps
     * it, and the session continues from the state as of {@code toSeq}: the transcript cut back to
     * {@code messageCount} messages, session variables, context start and compaction as they were
     * there. The journal keeps every event; usage and denials stay counted (they happened). User and
     * app variables are shared with other sessions and are not rolled back.
     */
    record TurnRolledBack(long toSeq, String sideBranch, int messageCount, Map<String, JsonNode> variables,
                          int contextStart, Compaction compaction, String reason) implements Event {
        public TurnRolledBack {
            Require.argument(toSeq >= 1, "toSeq", "must be at least 1");
            Require.nonBlank(sideBranch, "sideBranch");
            Require.argument(messageCount >= 0, "messageCount", "must not be negative");
            variables = variables == null ? Map.of() : Map.copyOf(variables);
            Require.nonBlank(reason, "reason");
        }
    }

    /**
     * The compensation of an earlier side_effect call ran ({@code Session.compensate}): {@code outcome}
     * is what it returned; when {@code error} is false the effect is undone and leaves the ledger of
     * side effects. Changes no state: the call and its result stay in the transcript.
     */
    record EffectCompensated(String toolUseId, String name, String outcome, boolean error) implements Event {
        public EffectCompensated {
            Require.nonBlank(toolUseId, "toolUseId");
            Require.nonBlank(name, "name");
            Require.nonNull(outcome, "outcome");
        }
    }
}
