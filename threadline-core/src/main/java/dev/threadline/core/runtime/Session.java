package dev.threadline.core.runtime;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.Checkpoint;
import dev.threadline.core.state.State;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A handle on one session. Commands that change it ({@link #submit}, {@link #update}, {@link #clear}, {@link #compact})
 * go through the session's mailbox: they run one at a time, in the order they were called, whatever
 * thread calls them. Handles are cheap and thread-safe; several may point at one session.
 */
public interface Session {

    String id();

    SessionInfo info();

    /** Runs a turn for the user's text and waits for it to end. */
    TurnResult submit(String text);

    /** Queues a turn; the future completes when it ends. */
    CompletableFuture<TurnResult> submitAsync(String text);

    /** Runs one step decided from the current state, in the mailbox (behind queued turns). */
    Commit update(Decider decider);

    /** Asks the running turn to stop (running skills are cancelled). False when none runs. */
    boolean interrupt();

    /** Starts the model's context afresh; the history stays in the journal. */
    void clear();

    /**
     * Has the model summarise the whole context now, whatever the session's policy: one
     * {@code ContextCompacted} step, the model's view then starts from the summary; the journal keeps
     * every original message. Runs in the mailbox, between turns.
     */
    CompactionResult compact();

    /** Like {@link #compact()}, asking the summary to focus on {@code focus} (e.g. "the open bugs"). */
    CompactionResult compact(String focus);

    /** The size of the context the next model call would see, against the model's window. */
    ContextReport context();

    /** The current state. */
    State state();

    /** Every step of the journal, oldest first (a branch lists its parent's steps before the branch point too). */
    List<Checkpoint> checkpoints();

    /** The state as of a checkpoint's seq. */
    State stateAt(long seq);

    /** The whole journal, ancestors' shared prefix included. */
    List<StoredEvent> journal();

    /** A new session that shares this one's history up to checkpoint {@code seq}; this one is unchanged. */
    Session fork(long seq, String newId);

    /** Like {@link #fork(long, String)} with a generated id ({@code <id>.f<n>}). */
    Session fork(long seq);

    /**
     * Continues from checkpoint {@code seq} on a new branch ({@code <id>.r<n>}) and returns it; this
     * session, the old branch, stays as it was and listable.
     */
    Session rewind(long seq);
}
