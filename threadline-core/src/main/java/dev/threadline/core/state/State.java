package dev.threadline.core.state;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Usage;
import java.util.List;
import java.util.Map;

/**
 * The live data of one session as of journal position {@code seq}: an immutable value, a new one per
 * event. Produced only by the reducer.
 *
 * @param seq          journal position this state reflects (0 = nothing yet)
 * @param step         number of commits folded so far
 * @param status       idle, running a turn, or a turn suspended awaiting a person
 * @param messages     the full transcript (compaction and clear change the model's view, not this)
 * @param variables    session-scoped variables (working memory)
 * @param pending      tool calls of the last assistant message that are not yet in the transcript
 * @param usage        token usage totalled over every model reply
 * @param contextStart index of the first message the model's context starts from (moved by clear)
 * @param compaction   the latest compaction, or null
 * @param permissionDenials tool calls a person denied (the seeds' {@code permissionDenials}), counted over the session
 * @param modelChange  the latest {@link Edit.SetModel} of the session, or null while it runs on the model it was
 *                     created with (see {@code SessionConfig.withModelChange})
 * @param recalled     the earlier messages the session's recall chose for the model's view at its latest model call
 *                     ({@code ContextRecalled}), in transcript order; empty when none (ADR 0042)
 * @param budget       the session's budget as last set ({@code BudgetSet}), or null while its config's is in force
 * @param steered      user messages steered into the running turn ({@code MessageSteered}) that have not joined the
 *                     transcript yet; empty when none
 * @param toolUseIds   every tool_use id of {@code messages} (derived from them; shared between versions, never stored)
 */
public record State(long seq, long step, SessionStatus status, List<Message> messages, Map<String, JsonNode> variables,
                    List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction,
                    int permissionDenials, Edit.SetModel modelChange, List<RecalledMessage> recalled,
                    dev.threadline.core.state.Budget budget, List<Message> steered, @JsonIgnore ToolUseIds toolUseIds) {

    /** The state of a session before its first event. */
    public static final State EMPTY = new State(0, 0, SessionStatus.IDLE, AppendOnlyList.empty(), Map.of(), List.of(),
            Usage.ZERO, 0, null, 0, null, List.of(), null, List.of(), ToolUseIds.EMPTY);

    /**
     * Checks and normalises the components; a null {@code toolUseIds} is derived from {@code messages}.
     *
     * @throws IllegalArgumentException if {@code toolUseIds} covers a different number of messages
     */
    public State {
        messages = AppendOnlyList.copyOf(messages);
        variables = Map.copyOf(variables);
        pending = List.copyOf(pending);
        recalled = recalled == null ? List.of() : List.copyOf(recalled);
        steered = steered == null ? List.of() : List.copyOf(steered);
        if (toolUseIds == null) {
            toolUseIds = ToolUseIds.of(messages);
        } else if (toolUseIds.messageCount() != messages.size()) {
            throw new IllegalArgumentException("toolUseIds cover " + toolUseIds.messageCount() + " messages but the transcript holds "
                    + messages.size());
        }
    }

    /** A state that recalls nothing (the shape before recall, ADR 0042). */
    public State(long seq, long step, SessionStatus status, List<Message> messages, Map<String, JsonNode> variables,
                 List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction, int permissionDenials,
                 Edit.SetModel modelChange, ToolUseIds toolUseIds) {
        this(seq, step, status, messages, variables, pending, usage, contextStart, compaction, permissionDenials, modelChange,
                List.of(), null, List.of(), toolUseIds);
    }

    /** A state whose tool_use ids are derived from {@code messages} (one pass over them). */
    public State(long seq, long step, SessionStatus status, List<Message> messages, Map<String, JsonNode> variables,
                 List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction) {
        this(seq, step, status, messages, variables, pending, usage, contextStart, compaction, 0, null, null);
    }

    /** Everything but the message bodies: what a snapshot stores. */
    public StateSnapshot snapshot() {
        return new StateSnapshot(seq, step, status, messages.size(), variables, pending, usage, contextStart, compaction,
                permissionDenials, modelChange, recalled, budget, steered);
    }

    /**
     * Rebuilds a state from a snapshot and the transcript as of the snapshot's seq; the tool_use ids
     * are derived from the transcript (the snapshot does not hold them).
     *
     * @throws IllegalStateException if the transcript does not have the snapshot's message count
     */
    public static State fromSnapshot(StateSnapshot s, List<Message> messages) {
        if (messages.size() != s.messageCount()) {
            throw new IllegalStateException("snapshot at seq " + s.seq() + " counts " + s.messageCount()
                    + " messages but the journal holds " + messages.size());
        }
        return new State(s.seq(), s.step(), s.status(), messages, s.variables(), s.pending(), s.usage(),
                s.contextStart(), s.compaction(), s.permissionDenials(), s.modelChange(), s.recalled(), s.budget(), s.steered(), ToolUseIds.of(messages));
    }

    /** Whether no turn is running or suspended. */
    @JsonIgnore
    public boolean isIdle() {
        return status == SessionStatus.IDLE;
    }

    /** Whether a turn is suspended awaiting a person (approval or an answer); no process runs it. */
    @JsonIgnore
    public boolean isSuspended() {
        return status.isSuspended();
    }

    /** The pending calls that wait for a person, in the order of their tool_use blocks. */
    @JsonIgnore
    public List<PendingToolCall> awaiting() {
        return pending.stream().filter(PendingToolCall::waitsForAPerson).toList();
    }

    /** The session variable {@code name}, or null when it is not set. */
    public JsonNode variable(String name) {
        return variables.get(name);
    }

    /**
     * A copy with these components and the same transcript (and so the same tool_use ids). States are
     * values: this changes no session; the reducer uses it to fold events.
     */
    public State with(long seq, long step, SessionStatus status, Map<String, JsonNode> variables,
               List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction) {
        return new State(seq, step, status, messages, variables, pending, usage, contextStart, compaction, permissionDenials,
                modelChange, recalled, budget, steered, toolUseIds);
    }

    /** A copy whose recall choice is {@code chosen} (the reducer folds a {@code ContextRecalled} with it). */
    public State withRecalled(List<RecalledMessage> chosen) {
        return new State(seq, step, status, messages, variables, pending, usage, contextStart, compaction, permissionDenials,
                modelChange, chosen, budget, steered, toolUseIds);
    }

    /** A copy with budget {@code set} and status {@code status} (the reducer folds a {@code BudgetSet} with it). */
    public State withBudget(dev.threadline.core.state.Budget set, SessionStatus status) {
        return new State(seq, step, status, messages, variables, pending, usage, contextStart, compaction, permissionDenials,
                modelChange, recalled, set, steered, toolUseIds);
    }

    /** A copy with these steered messages waiting (the reducer folds {@code MessageSteered} and their delivery with it). */
    public State withSteered(List<Message> waiting) {
        return new State(seq, step, status, messages, variables, pending, usage, contextStart, compaction, permissionDenials,
                modelChange, recalled, budget, waiting, toolUseIds);
    }

    /** The budget in force: the one last set, else {@code configured} (the session config's; null: no limit). */
    public dev.threadline.core.state.Budget budgetOr(dev.threadline.core.state.Budget configured) {
        return budget != null ? budget : configured;
    }

    /** A copy with another count of denied calls (the reducer counts a denial with it). */
    public State withPermissionDenials(int denials) {
        return new State(seq, step, status, messages, variables, pending, usage, contextStart, compaction, denials, modelChange,
                recalled, budget, steered, toolUseIds);
    }

    /** A copy whose model is the one {@code change} sets (the reducer folds an {@link Edit.SetModel} with it). */
    public State withModelChange(Edit.SetModel change) {
        return new State(seq, step, status, messages, variables, pending, usage, contextStart, compaction, permissionDenials,
                change, recalled, budget, steered, toolUseIds);
    }

    /**
     * A copy whose transcript has {@code next} appended: amortised O(1), the transcript and ids are shared
     * between the versions. Checks nothing: the reducer checks an event before it folds it.
     */
    public State withMessage(Message next, SessionStatus status, List<PendingToolCall> pending, Usage usage) {
        return new State(seq, step, status, transcript().plus(next), variables, pending, usage, contextStart, compaction,
                permissionDenials, modelChange, recalled, budget, steered, toolUseIds.plus(next));
    }

    AppendOnlyList<Message> transcript() {
        return (AppendOnlyList<Message>) messages;
    }
}
