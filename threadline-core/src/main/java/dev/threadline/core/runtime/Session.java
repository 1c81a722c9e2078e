package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.Checkpoint;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Page;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A handle on one session of one tenant. Commands that change it ({@link #submit}, {@link #approve},
 * {@link #deny}, {@link #answer}, {@link #edit}, {@link #clear}, {@link #compact}, and the branch
 * commands {@link #fork} and {@link #rewind}) run one
 * at a time per session, in the order they were called, in this process and across processes: a
 * command first takes the session's lease, waiting (bounded) while another process holds it.
 * Reads ({@link #state}, {@link #checkpoints}, {@link #journal}, ...) never change anything, and see
 * what other processes wrote. Handles are cheap and thread-safe; several may point at one session.
 *
 * <p>Every write can carry a caller's command id ({@link CommandOptions}): repeating it returns the first
 * outcome and appends nothing.
 */
public interface Session {

    /** The session's id within its tenant. */
    String id();

    /**
     * The session's fixed description.
     *
     * @throws dev.threadline.core.SessionNotFoundException when the session was deleted
     */
    SessionInfo info();

    /**
     * Runs a turn for the user's text and waits for it to end.
     *
     * @throws dev.threadline.core.InvalidInputException when the text is blank
     * @throws dev.threadline.core.LeaseHeldException   when another process kept the session past the wait bound
     * @throws dev.threadline.core.LeaseLostException   when another process took the session over during the turn
     * @throws dev.threadline.core.llm.ModelException    when the model failed (the turn is recorded as interrupted)
     */
    default TurnResult submit(String text) {
        return submit(text, CommandOptions.NONE);
    }

    /**
     * Like {@link #submit(String)}, idempotent by {@code options.commandId()}.
     *
     * @throws dev.threadline.core.CommandConflictException when the command id was used for another command
     */
    TurnResult submit(String text, CommandOptions options);

    /** Queues a turn; the future completes when it ends (with the exceptions of {@link #submit(String)}). */
    default CompletableFuture<TurnResult> submitAsync(String text) {
        return submitAsync(text, CommandOptions.NONE);
    }

    /** Like {@link #submitAsync(String)}, idempotent by {@code options.commandId()}. */
    CompletableFuture<TurnResult> submitAsync(String text, CommandOptions options);

    /**
     * Approves a call that waits for approval: it runs with the model's arguments, then the turn goes on
     * (it may suspend again if other calls still wait). Any process can approve, after any restart.
     *
     * @throws dev.threadline.core.InvalidInputException when no call with this id waits for approval (it is
     *         unknown, or was approved, denied or answered already): nothing is written
     */
    default TurnResult approve(String toolUseId) {
        return approve(toolUseId, null, CommandOptions.NONE);
    }

    /**
     * Approves a call with {@code editedArguments} in place of the model's (null: the model's). The edited
     * arguments are validated against the skill's schema first; the result tells the model they were edited.
     *
     * @throws dev.threadline.core.InvalidInputException when no call with this id waits for approval, or the
     *         edited arguments do not match the schema (naming each problem): nothing is written
     */
    default TurnResult approve(String toolUseId, JsonNode editedArguments) {
        return approve(toolUseId, editedArguments, CommandOptions.NONE);
    }

    /** Like {@link #approve(String, JsonNode)}, idempotent by {@code options.commandId()}. */
    TurnResult approve(String toolUseId, JsonNode editedArguments, CommandOptions options);

    /**
     * Denies a call that waits for approval: it never runs; its result is the error "denied by the user:
     * {@code reason}", {@code State.permissionDenials} counts it, and the turn goes on.
     *
     * @throws dev.threadline.core.InvalidInputException when no call with this id waits for approval, or the
     *         reason is blank: nothing is written
     */
    default TurnResult deny(String toolUseId, String reason) {
        return deny(toolUseId, reason, CommandOptions.NONE);
    }

    /** Like {@link #deny(String, String)}, idempotent by {@code options.commandId()}. */
    TurnResult deny(String toolUseId, String reason, CommandOptions options);

    /**
     * Answers a question the model asked ({@code ask_user}): the text becomes the call's result and the
     * turn goes on.
     *
     * @throws dev.threadline.core.InvalidInputException when no question with this id waits, or the text is
     *         blank: nothing is written
     */
    default TurnResult answer(String toolUseId, String text) {
        return answer(toolUseId, text, CommandOptions.NONE);
    }

    /** Like {@link #answer(String, String)}, idempotent by {@code options.commandId()}. */
    TurnResult answer(String toolUseId, String text, CommandOptions options);

    /** The calls of a suspended turn that wait for a person (approvals and questions); empty when none waits. A pure read. */
    List<PendingApproval> pendingApprovals();

    /**
     * Records one step that ran outside Threadline's own agent loop — a framework adapter's memory writing
     * the messages its loop produced (user message, assistant reply, tool calls with their results, the
     * end of the turn): {@code decider} sees the current state and returns the events. Guarded: it runs
     * only between turns, and the step must leave the session between turns again, with no tool call
     * unanswered; the reducer checks every event. Otherwise nothing is written. For corrections by a
     * person use {@link #edit}.
     *
     * @throws dev.threadline.core.InvalidInputException when the session is in a turn or the step would leave it in one
     * @throws dev.threadline.core.InvalidEventException when the reducer refuses an event
     */
    default Commit recordStep(Decider decider) {
        return recordStep(decider, CommandOptions.NONE);
    }

    /** Like {@link #recordStep(Decider)}, idempotent by {@code options.commandId()}. */
    Commit recordStep(Decider decider, CommandOptions options);

    /**
     * Edits the state between turns: the typed {@code edits} are recorded together as one
     * {@code StateEdited} step by {@code author}, for {@code reason}. To change the past, {@link #rewind}
     * to a checkpoint and edit the branch it returns (history is never destroyed).
     *
     * @throws dev.threadline.core.InvalidEventException when an edit would break an invariant (a turn runs
     *         or waits, a tool message, a tool_use no turn answers, a temp variable, ...): nothing is written
     * @throws dev.threadline.core.InvalidInputException when the author is blank or there are no edits
     */
    default Commit edit(String author, String reason, Edit... edits) {
        return edit(author, reason, List.of(edits), CommandOptions.NONE);
    }

    /** Like {@link #edit(String, String, Edit...)}, idempotent by {@code options.commandId()}. */
    Commit edit(String author, String reason, List<Edit> edits, CommandOptions options);

    /**
     * Asks the turn this process runs for the session to stop (running skills are cancelled). False when
     * none runs here; a turn suspended for a person is not running (deny or answer its calls, or send a
     * new message, which denies them). To stop a turn another process runs, submit with
     * {@code DoubleTexting.INTERRUPT}.
     */
    boolean interrupt();

    /** Starts the model's context afresh; the history stays in the journal. Refused while a turn runs. */
    default void clear() {
        clear(CommandOptions.NONE);
    }

    /** Like {@link #clear()}, idempotent by {@code options.commandId()}. */
    void clear(CommandOptions options);

    /**
     * Has the model summarise the whole context now, whatever the session's policy: one
     * {@code ContextCompacted} step; the model's view then starts from the summary and the journal keeps
     * every original message. Runs between turns.
     */
    default CompactionResult compact() {
        return compact(null, CommandOptions.NONE);
    }

    /** Like {@link #compact()}, asking the summary to focus on {@code focus} (e.g. "the open bugs"). */
    default CompactionResult compact(String focus) {
        return compact(focus, CommandOptions.NONE);
    }

    /** Like {@link #compact(String)}, idempotent by {@code options.commandId()}. */
    CompactionResult compact(String focus, CommandOptions options);

    /** The size of the context the next model call would see, against the model's window. */
    ContextReport context();

    /** The current state, as the store has it (a running turn elsewhere shows as running). */
    State state();

    /** The variables of one scope as this session sees them (session, its user's, its tenant's app ones). */
    Map<String, JsonNode> variables(VariableScope scope);

    /**
     * The calls of {@code side_effect} skills the journal records after checkpoint {@code seq}: what a
     * rewind or fork to {@code seq} cannot undo. A pure read.
     */
    List<SideEffect> sideEffectsAfter(long seq);

    /**
     * Undoes what can be undone before going back to checkpoint {@code seq}: runs the compensation of
     * each side effect after it whose skill is {@link dev.threadline.core.skill.Compensable}, newest
     * first, once each (an undone effect leaves the ledger), and records each outcome as an
     * {@code EffectCompensated} step. Returns the compensations run, with their outcomes; effects
     * that cannot be compensated stay listed by {@link #sideEffectsAfter}.
     */
    default List<SideEffect> compensate(long seq) {
        return compensate(seq, CommandOptions.NONE);
    }

    /** Like {@link #compensate(long)}, idempotent by {@code options.commandId()} (a repeat runs nothing). */
    List<SideEffect> compensate(long seq, CommandOptions options);

    /** Every step of the journal, oldest first (a branch lists its parent's steps before the branch point too). */
    List<Checkpoint> checkpoints();

    /** One page of checkpoints, read without reading the whole journal. */
    Page<Checkpoint> checkpoints(PageRequest page);

    /**
     * The state as of a checkpoint's seq.
     *
     * @throws dev.threadline.core.InvalidInputException when the seq is outside the journal
     */
    State stateAt(long seq);

    /** The whole journal, ancestors' shared prefix included. */
    List<StoredEvent> journal();

    /** Up to {@code limit} journal events after {@code afterSeq}, oldest first (a tail read). */
    List<StoredEvent> events(long afterSeq, int limit);

    /**
     * Waits up to {@code timeout} for events after {@code afterSeq} and returns them (up to 1000; empty
     * when none came), whichever process writes them.
     *
     * @throws dev.threadline.core.ThreadlineException when the waiting thread is interrupted
     */
    List<StoredEvent> awaitEvents(long afterSeq, Duration timeout);

    /** A new session that shares this one's history up to checkpoint {@code seq}; this one is unchanged. */
    default Session fork(long seq, String newId) {
        return fork(seq, newId, CommandOptions.NONE);
    }

    /** Like {@link #fork(long, String)} with a generated id ({@code <id>.f<n>}). */
    default Session fork(long seq) {
        return fork(seq, null, CommandOptions.NONE);
    }

    /**
     * Like {@link #fork(long, String)} ({@code newId} null for a generated one), idempotent by
     * {@code options.commandId()}. A refused fork leaves nothing behind.
     *
     * @throws dev.threadline.core.InvalidInputException when {@code seq} is not a checkpoint or the branch would be invalid
     * @throws dev.threadline.core.UndoneEffectsException when calls with side effects come after {@code seq}
     *         and {@code options} does not acknowledge them (see {@link #sideEffectsAfter})
     */
    Session fork(long seq, String newId, CommandOptions options);

    /**
     * Continues from checkpoint {@code seq} on a new branch ({@code <id>.r<n>}) and returns it; this
     * session, the old branch, stays as it was and listable.
     */
    default Session rewind(long seq) {
        return rewind(seq, CommandOptions.NONE);
    }

    /**
     * Like {@link #rewind(long)}, idempotent by {@code options.commandId()}.
     *
     * @throws dev.threadline.core.UndoneEffectsException when calls with side effects come after {@code seq}
     *         and {@code options} does not acknowledge them
     */
    Session rewind(long seq, CommandOptions options);
}
