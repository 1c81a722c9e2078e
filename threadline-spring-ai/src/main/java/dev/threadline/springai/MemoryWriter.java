package dev.threadline.springai;

import dev.threadline.core.runtime.Session;
import java.util.List;
import org.springframework.ai.chat.messages.Message;

/**
 * The one place this adapter writes to a session without a model turn: each save is one
 * {@link Session#recordStep} step whose events {@link Plan} decides from the session's current state (a step
 * is re-decided on a conflict). Kept in one class so it can move to core's typed edit API. Thread-safe.
 */
final class MemoryWriter {
    private MemoryWriter() {}

    /** Makes the session's view equal to {@code messages}, appending only what is new. */
    static void replace(Conversations conversations, Session session, List<Message> messages) {
        List<Message> copy = List.copyOf(messages);
        View handed = conversations.lastView(session.id()); // the view a caller most likely read the list from
        session.recordStep(s -> Plan.replace(s, copy, st -> conversations.view(session.id(), st), handed));
    }
}
