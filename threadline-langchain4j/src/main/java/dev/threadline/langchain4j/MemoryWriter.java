package dev.threadline.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.threadline.core.runtime.Session;
import java.util.List;

/**
 * The one place this adapter writes to a session without a model turn: each write is one
 * {@link Session#recordStep} step whose events {@link Plan} decides from the session's current state, so
 * concurrent writers never lose each other's messages (a step is re-decided on a conflict). Views come from
 * {@code sessions}, built from the session's last one. Kept in one class so it can move to core's typed edit
 * API. Thread-safe.
 */
final class MemoryWriter {
    private MemoryWriter() {}

    /** Makes the session's view equal to {@code messages}, appending only what is new. */
    static void replace(MemorySessions sessions, Session session, List<ChatMessage> messages) {
        List<ChatMessage> copy = List.copyOf(messages);
        View handed = sessions.lastView(session.id()); // the view a caller most likely read the list from
        session.recordStep(s -> Plan.replace(s, copy, st -> sessions.view(session.id(), st), handed));
    }

    /** Appends {@code messages} to the session's view, as a chat memory adds them. */
    static void append(MemorySessions sessions, Session session, List<ChatMessage> messages, boolean systemFirst) {
        List<ChatMessage> copy = List.copyOf(messages);
        session.recordStep(s -> Plan.append(s, copy, systemFirst, st -> sessions.view(session.id(), st)));
    }

    /** Empties the session's view; the journal keeps the history. */
    static void clear(MemorySessions sessions, Session session) {
        session.recordStep(s -> Plan.clear(s, st -> sessions.view(session.id(), st)));
    }
}
