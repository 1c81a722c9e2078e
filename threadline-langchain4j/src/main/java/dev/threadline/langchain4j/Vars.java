package dev.threadline.langchain4j;

import dev.threadline.chatmemory.MemoryLayout;

/**
 * Where a memory's view is kept: the session variables of {@link #LAYOUT} (session scope, so in the journal
 * and in every checkpoint). Everything else is the session's transcript.
 */
final class Vars {
    /** The variables {@code langchain4j.start}, {@code .system}, {@code .pending}, {@code .pending.result.<n>}. */
    static final MemoryLayout LAYOUT = new MemoryLayout("langchain4j");

    /**
     * The reason recorded for a call whose result the memory never held (the list moved on without it):
     * the store does not read such a result back.
     */
    static final String UNANSWERED = "no result was stored for this call: the chat memory moved on without one";

    private Vars() {}
}
