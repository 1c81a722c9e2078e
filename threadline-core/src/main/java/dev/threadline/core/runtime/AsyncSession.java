package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.state.Edit;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A session's commands as futures ({@link Session#async()}): each is queued behind the session's earlier
 * commands and runs on a thread of the runtime's, never the caller's; the future completes with what the
 * blocking command returns, or exceptionally with what it throws. Arguments are checked at once: bad input
 * throws here and queues nothing. Thread-safe.
 */
public interface AsyncSession {

    /**
     * {@link Session#submit}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the text is blank
     * @throws dev.threadline.core.error.SessionBusyException  when a turn runs and the strategy is {@code reject}
     */
    CompletableFuture<TurnResult> submit(String text);

    /**
     * {@link Session#approve(String)}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the id is blank
     */
    CompletableFuture<TurnResult> approve(String toolUseId);

    /**
     * {@link Session#approve(String, JsonNode)}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the id is blank
     */
    CompletableFuture<TurnResult> approve(String toolUseId, JsonNode editedArguments);

    /**
     * {@link Session#deny}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the id or the reason is blank
     */
    CompletableFuture<TurnResult> deny(String toolUseId, String reason);

    /**
     * {@link Session#answer}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the id or the text is blank
     */
    CompletableFuture<TurnResult> answer(String toolUseId, String text);

    /**
     * {@link Session#recordStep}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the decider is null
     */
    CompletableFuture<Commit> recordStep(Decider decider);

    /**
     * {@link Session#edit}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the author is blank or there are no edits
     */
    CompletableFuture<Commit> edit(String author, String reason, List<Edit> edits);

    /** {@link Session#clear}, queued. */
    CompletableFuture<Void> clear();

    /** {@link Session#compact(String)}, queued ({@code focus} null for none). */
    CompletableFuture<CompactionResult> compact(String focus);

    /**
     * {@link Session#compensate}, queued.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code seq} is negative
     */
    CompletableFuture<List<SideEffect>> compensate(long seq);

    /** {@link Session#fork(long, String)}, queued ({@code newId} null for a generated one). */
    CompletableFuture<Session> fork(long seq, String newId);

    /** {@link Session#rewind}, queued. */
    CompletableFuture<Session> rewind(long seq);

    /** {@link Session#replay}, on one of the runtime's threads (each replayed turn is queued on the new branch). */
    CompletableFuture<ReplayReport> replay(ReplayRequest request);
}
