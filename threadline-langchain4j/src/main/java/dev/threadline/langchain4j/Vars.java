package dev.threadline.langchain4j;

/**
 * The session variables a memory's view is kept in (session scope, so in the journal and in every
 * checkpoint). Everything else is the session's transcript.
 */
final class Vars {
    /** Transcript index where the view starts (absent: the session's context start). */
    static final String START = "langchain4j.start";
    /** System messages: {@code [{"at": offset from START, "text": ...}]}, each before the transcript message at that offset. */
    static final String SYSTEM = "langchain4j.system";
    /** The AI message of a tool-call group still waiting for results (stored tool ids). */
    static final String PENDING = "langchain4j.pending";
    /** Prefix of the recorded results of the pending group, one variable per call position. */
    static final String PENDING_RESULT = "langchain4j.pending.result.";

    /**
     * The reason recorded for a call whose result the memory never held (the list moved on without it):
     * the store does not read such a result back.
     */
    static final String UNANSWERED = "no result was stored for this call: the chat memory moved on without one";

    private Vars() {}
}
