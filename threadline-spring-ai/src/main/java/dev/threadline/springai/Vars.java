package dev.threadline.springai;

/** The session variables a conversation's view is kept in (session scope); everything else is the transcript. */
final class Vars {
    /** Transcript index where the view starts (absent: the session's context start). */
    static final String START = "spring-ai.start";
    /** System messages: {@code [{"at": offset from START, "text": ...}]}, each before the transcript message at that offset. */
    static final String SYSTEM = "spring-ai.system";
    /** An assistant message with tool calls still waiting for its tool response (stored tool ids). */
    static final String PENDING = "spring-ai.pending";
    /** The reason recorded for a call the conversation moved on from without a response; never read back. */
    static final String UNANSWERED = "no response was stored for this call: the conversation moved on without one";

    private Vars() {}
}
