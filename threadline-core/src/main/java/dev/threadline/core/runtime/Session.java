package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import java.util.List;
import java.util.Map;

/**
 * A handle on one session of one tenant. Commands that change it ({@link #submit}, {@link #approve},
 * {@link #deny}, {@link #answer}, {@link #recordStep}, {@link #edit}, {@link #clear}, {@link #compact},
 * {@link #compensate}, and the branch commands {@link #fork} and {@link #rewind}) run one at a time per
 * session, in the order they were called, in this process and across processes: a command first takes
 * the session's lease, waiting (bounded) while another process holds it. Reads ({@link #state},
 * {@link #history}, ...) never change anything, and see what other processes wrote. Handles are cheap
 * and thread-safe; several may point at one session.
 *
 * <p>Each command is here once, blocking; {@link #async()} gives the same commands as futures, and
 * {@link #with(CommandOptions)} a view whose commands carry options (a caller's command id, which makes
 * them idempotent, a double-texting strategy, a listener of the streamed text):
 *
 * {@snippet :
 * TurnResult r = session.submit("what is (2+3)*4");
 * CompletableFuture<TurnResult> later = session.with(CommandOptions.builder().commandId(key).build()).async().submit("and *5?");
 * }
 */
public interface Session {

    /** The session's id within its tenant. */
    String id();

    /**
     * The session's fixed description.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session was deleted
     */
    SessionInfo info();

    /**
     * A view of this session whose commands carry {@code options} (reads are the same). Views are cheap;
     * the options of this view are replaced, not merged.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code options} is null
     */
    Session with(CommandOptions options);

    /** This session's commands as futures, with this view's options; nothing runs on the caller's thread. */
    AsyncSession async();

    /** The session's past: checkpoints, the journal, the state as of any seq, side effects. Reads only. */
    History history();

    /**
     * Runs a turn for the user's text and waits for it to end. With a command id, a repeat returns the
     * first outcome and appends nothing.
     *
     * @throws dev.threadline.core.error.InvalidInputException    when the text is blank
     * @throws dev.threadline.core.error.SessionBusyException     when a turn runs and the strategy is {@code reject}
     * @throws dev.threadline.core.error.LeaseHeldException       when another process kept the session past the wait bound
     * @throws dev.threadline.core.error.LeaseLostException       when another process took the session over during the turn
     * @throws dev.threadline.core.error.CommandConflictException when the command id was used for another command
     * @throws dev.threadline.core.llm.ModelException             when the model failed (the turn is recorded as interrupted)
     */
    TurnResult submit(String text);

    /**
     * Sets what the whole session may spend from now on, over its config's budget ({@code Budget.NONE}: no limit;
     * recorded as a {@code BudgetSet} event). When a turn waits with status {@code budget_exceeded} and the new
     * budget leaves room, the turn continues here, in this process whichever one suspended it, and its result is
     * returned; otherwise the budget is recorded and the result is empty.
     *
     * @throws dev.threadline.core.error.InvalidInputException when a turn waits for budget and this one still leaves it no
     *         room: nothing is written
     */
    java.util.Optional<TurnResult> setBudget(dev.threadline.core.state.Budget budget);

    /**
     * Approves a call that waits for approval: it runs with the model's arguments, then the turn goes on
     * (it may suspend again if other calls still wait). Any process can approve, after any restart.
     *
     * @throws dev.threadline.core.error.InvalidInputException when no call with this id waits for approval (it is
     *         unknown, or was approved, denied or answered already): nothing is written
     */
    TurnResult approve(String toolUseId);

    /**
     * Approves a call with {@code editedArguments} in place of the model's. The edited arguments are
     * validated against the skill's schema first; the result tells the model they were edited.
     *
     * @throws dev.threadline.core.error.InvalidInputException when no call with this id waits for approval, or the
     *         edited arguments do not match the schema (naming each problem): nothing is written
     */
    TurnResult approve(String toolUseId, JsonNode editedArguments);

    /**
     * Denies a call that waits for approval: it never runs; its result is the error "denied by the user:
     * {@code reason}", {@code State.permissionDenials} counts it, and the turn goes on.
     *
     * @throws dev.threadline.core.error.InvalidInputException when no call with this id waits for approval, or the
     *         reason is blank: nothing is written
     */
    TurnResult deny(String toolUseId, String reason);

    /**
     * Answers a question the model asked ({@code ask_user}): the text becomes the call's result and the
     * turn goes on.
     *
     * @throws dev.threadline.core.error.InvalidInputException when no question with this id waits, or the text is
     *         blank: nothing is written
     */
    TurnResult answer(String toolUseId, String text);

    /**
     * Records one step that ran outside Threadline's own agent loop — a framework adapter's memory writing
     * the messages its loop produced (user message, assistant reply, tool calls with their results, the
     * end of the turn): {@code decider} sees the current state and returns the events. Guarded: it runs
     * only between turns, and the step must leave the session between turns again, with no tool call
     * unanswered; the reducer checks every event. Otherwise nothing is written. For corrections by a
     * person use {@link #edit}.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the session is in a turn or the step would leave it in one
     * @throws dev.threadline.core.error.InvalidEventException when the reducer refuses an event
     */
    Commit recordStep(Decider decider);

    /**
     * Edits the state between turns: the typed {@code edits} are recorded together as one
     * {@code StateEdited} step by {@code author}, for {@code reason}. To change the past, {@link #rewind}
     * to a checkpoint and edit the branch it returns (history is never destroyed).
     *
     * @throws dev.threadline.core.error.InvalidEventException when an edit would break an invariant (a turn runs
     *         or waits, a tool message, a tool_use no turn answers, a temp variable, ...): nothing is written
     * @throws dev.threadline.core.error.InvalidInputException when the author is blank or there are no edits
     */
    Commit edit(String author, String reason, List<Edit> edits);

    /**
     * Starts the model's context afresh; the history stays in the journal.
     *
     * @throws dev.threadline.core.error.InvalidEventException while a turn runs or waits
     */
    void clear();

    /**
     * Has the model summarise the whole context now, whatever the session's policy: one
     * {@code ContextCompacted} step; the model's view then starts from the summary and the journal keeps
     * every original message. Runs between turns.
     *
     * @throws dev.threadline.core.llm.ModelException when the summary call fails (nothing is recorded)
     */
    CompactionResult compact();

    /**
     * Like {@link #compact()}, asking the summary to focus on {@code focus} (e.g. "the open bugs").
     *
     * @throws dev.threadline.core.llm.ModelException when the summary call fails (nothing is recorded)
     */
    CompactionResult compact(String focus);

    /**
     * Undoes what can be undone before going back to checkpoint {@code seq}: runs the compensation of
     * each side effect after it whose skill is {@link dev.threadline.core.skill.Compensable}, newest
     * first, once each (an undone effect leaves the ledger), and records each outcome as an
     * {@code EffectCompensated} step. Returns the compensations run, with their outcomes; effects
     * that cannot be compensated stay listed by {@link History#sideEffectsAfter}. With a command id a
     * repeat runs nothing.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code seq} is negative
     */
    List<SideEffect> compensate(long seq);

    /**
     * A new session, with a generated id ({@code <id>.f<n>}), that shares this one's history up to
     * checkpoint {@code seq}; this one is unchanged. A refused fork leaves nothing behind.
     *
     * @throws dev.threadline.core.error.InvalidInputException  when {@code seq} is not a checkpoint or the branch would be invalid
     * @throws dev.threadline.core.error.UndoneEffectsException when calls with side effects come after {@code seq}
     *         and this view's options do not acknowledge them (see {@link History#sideEffectsAfter})
     */
    Session fork(long seq);

    /**
     * Like {@link #fork(long)}, naming the new session {@code newId}.
     *
     * @throws dev.threadline.core.error.SessionExistsException when the tenant has a session {@code newId} already
     * @throws dev.threadline.core.error.InvalidInputException  when {@code seq} is not a checkpoint or the branch would be invalid
     * @throws dev.threadline.core.error.UndoneEffectsException when calls with side effects come after {@code seq}
     *         and this view's options do not acknowledge them
     */
    Session fork(long seq, String newId);

    /**
     * Continues from checkpoint {@code seq} on a new branch ({@code <id>.r<n>}) and returns it; this
     * session, the old branch, stays as it was and listable.
     *
     * @throws dev.threadline.core.error.InvalidInputException  when {@code seq} is not a checkpoint
     * @throws dev.threadline.core.error.UndoneEffectsException when calls with side effects come after {@code seq}
     *         and this view's options do not acknowledge them
     */
    Session rewind(long seq);

    /**
     * Runs this session's user turns again on another model, on a new branch ({@code <id>.replay<n>}, a fork
     * before the first replayed turn whose model is changed by a journalled edit), and compares each turn
     * with the original: reply, tool calls, tokens, outcome. A call with the same skill and arguments as one
     * the session made gets that call's recorded result and runs nothing, so no side effect happens again;
     * other calls get an error result unless {@link ReplayRequest#liveTools} lets a read-only or idempotent
     * skill run. This session is only read; the branch's fork acknowledges the side effects after it (it
     * reads their results, never runs them again). The branch stays for inspection (the inspector shows it beside
     * this one). Blocks until every turn ran.
     *
     * @throws dev.threadline.core.error.InvalidInputException  naming the field: a model the runtime does not
     *         know, or a range with no user turn (nothing is written then)
     */
    ReplayReport replay(ReplayRequest request);

    /**
     * Asks the turn this process runs for the session to stop: running skills are cancelled, and a model
     * call the turn waits for is abandoned at once (its thread is interrupted, so an HTTP provider closes
     * its connection); the turn is recorded as interrupted and the session is idle again when the
     * command that ran it returns. False when none runs here; a turn suspended for a person is not running (deny or answer its calls, or send a
     * new message, which denies them). To stop a turn another process runs, submit with
     * {@code DoubleTexting.INTERRUPT}.
     */
    boolean interrupt();

    /** The current state, as the store has it (a running turn elsewhere shows as running). */
    State state();

    /**
     * The config the session runs with now: {@code info().config()}, with the model and base URL of its
     * latest {@code Edit.SetModel} if it has one ({@code SessionConfig.withModelChange}). Change the model with
     * {@code edit(author, reason, List.of(Edit.setModel(spec, baseUrl)))}.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session was deleted
     */
    default dev.threadline.core.session.SessionConfig config() {
        return info().config().withModelChange(state().modelChange());
    }

    /** The calls of a suspended turn that wait for a person (approvals and questions); empty when none waits. A pure read. */
    List<PendingApproval> pendingApprovals();

    /** The variables of one scope as this session sees them (session, its user's, its tenant's app ones). */
    Map<String, JsonNode> variables(VariableScope scope);

    /** The size of the context the next model call would see, against the model's window. */
    ContextReport context();
}
