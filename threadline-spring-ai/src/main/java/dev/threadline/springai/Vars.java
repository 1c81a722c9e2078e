package dev.threadline.springai;

import dev.threadline.chatmemory.MemoryLayout;

/**
 * Where a conversation's view is kept: the session variables of {@link #LAYOUT} ({@code spring-ai.start},
 * {@code .system}, {@code .pending}; session scope). Everything else is the transcript.
 */
final class Vars {
    /** The variables of a conversation's view. */
    static final MemoryLayout LAYOUT = new MemoryLayout("spring-ai");
    /** The reason recorded for a call the conversation moved on from without a response; never read back. */
    static final String UNANSWERED = "no response was stored for this call: the conversation moved on without one";

    private Vars() {}
}
