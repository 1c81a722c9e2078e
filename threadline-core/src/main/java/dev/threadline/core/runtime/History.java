package dev.threadline.core.runtime;

import dev.threadline.core.model.SearchHit;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.State;
import dev.threadline.core.store.Page;
import java.time.Duration;
import java.util.List;

/**
 * A session's past ({@link Session#history()}): its checkpoints, its journal, the state as of any seq,
 * and the side effects a rewind would not undo. A branch lists its parent's steps before the branch point
 * too. Every method is a pure read and sees what any process wrote. Thread-safe.
 */
public interface History {

    /** Every step of the journal, oldest first. */
    List<Checkpoint> checkpoints();

    /**
     * One page of checkpoints, read without reading the whole journal.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code page} is null
     */
    Page<Checkpoint> checkpoints(PageRequest page);

    /**
     * The state as of a checkpoint's seq.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the seq is outside the journal
     */
    State stateAt(long seq);

    /**
     * The whole journal, ancestors' shared prefix included. After a prune (ADR 0045) the events after the seq it
     * was pruned through: the earlier ones live on only in the base the session's state starts from.
     */
    List<StoredEvent> journal();

    /**
     * Up to {@code limit} journal events after {@code afterSeq}, oldest first (a tail read).
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code afterSeq} is negative or {@code limit} outside 1-1000
     */
    List<StoredEvent> events(long afterSeq, int limit);

    /**
     * Waits up to {@code timeout} for events after {@code afterSeq} and returns them (up to 1000; empty
     * when none came), whichever process writes them.
     *
     * @throws dev.threadline.core.error.ThreadlineException when the waiting thread is interrupted
     */
    List<StoredEvent> awaitEvents(long afterSeq, Duration timeout);

    /**
     * The calls of {@code side_effect} skills the journal records after checkpoint {@code seq}: what a
     * rewind or fork to {@code seq} cannot undo.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code seq} is negative
     */
    List<SideEffect> sideEffectsAfter(long seq);

    /** The longest query {@link #search} takes, in characters. */
    int MAX_QUERY = SearchHit.MAX_QUERY;

    /**
     * Full-text search over every message this session's journal holds (its branch's shared prefix
     * included): what the user and the assistant said and what tools returned, also what compaction
     * folded into a summary or {@code clear()} took out of the window. Ranked by BM25 over the words
     * (letters and digits, case folded) of the query; at most {@code limit} hits, best first, ties by
     * seq. Reads only; the journal as of the call.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the query has no word or is longer than
     *                                                         {@value #MAX_QUERY} characters, or limit is not 1 to 100
     */
    List<SearchHit> search(String query, int limit);
}
