package dev.threadline.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Tenant;
import java.util.List;

/**
 * A LangChain4j {@link ChatMemoryStore} on Threadline: one session per memory id in one tenant (the id's
 * text, or a hash of it when it is not a valid session id).
 *
 * <p>{@link #updateMessages} never rewrites the journal. When the new list extends the stored one, only
 * the new messages are appended; when a window memory dropped its oldest messages and added new ones,
 * the view's start moves and only the new ones are appended; any other change (an edit in the middle, a
 * stale list from a lost update) is handled as a clear followed by the whole list: the old messages stay
 * in the journal, before the clear, and can be reached with Threadline's checkpoints, fork and rewind.
 * Tool requests and their results are kept, paired; a result that answers no request of the AI message
 * before it is refused.
 *
 * <p>A step costs what changed, not the history: the store keeps each session's last view (of up to 256
 * sessions), hands out the same message objects again, and recognises them, by identity, at the start of the
 * list {@code updateMessages} gets back, so that only the messages after them are converted and compared.
 *
 * <p>Thread-safe: each update is one step of the session, decided on its current state; several
 * processes may share a store.
 */
public final class ThreadlineChatMemoryStore implements ChatMemoryStore {
    private final MemorySessions sessions;

    /** A store whose new sessions get {@link SessionConfig#DEFAULT}. */
    public ThreadlineChatMemoryStore(Tenant tenant) {
        this(tenant, SessionConfig.DEFAULT);
    }

    /** A store whose new sessions get {@code config} (its model and prompt matter only to Threadline's own turns). */
    public ThreadlineChatMemoryStore(Tenant tenant, SessionConfig config) {
        this.sessions = new MemorySessions(tenant, config);
    }

    /** The sessions and their last views (the tests compare the views it builds with views built afresh). */
    MemorySessions sessions() {
        return sessions;
    }

    /** The Threadline session id that holds the memory {@code memoryId}. */
    public static String sessionId(Object memoryId) {
        return MemorySessions.sessionId(memoryId);
    }

    /** The memory's messages: empty when it has none. */
    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        return sessions.find(memoryId).map(s -> sessions.view(s.id(), s.state()).messages()).orElseGet(List::of);
    }

    /**
     * Makes the memory hold {@code messages}, appending only what is new (see the class comment).
     *
     * @throws IllegalArgumentException when a message cannot be stored: a custom message, a tool result
     *                                  without its request right before it, audio, video, PDF or inline
     *                                  image content
     */
    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        MemoryWriter.replace(sessions, sessions.openOrCreate(memoryId), messages);
    }

    /**
     * Deletes the memory's session and its journal (nothing when there is none).
     *
     * @throws dev.threadline.core.error.InvalidInputException when forks of the session depend on it
     */
    @Override
    public void deleteMessages(Object memoryId) {
        sessions.find(memoryId).ifPresent(s -> {
            sessions.forget(s.id());
            try {
                sessions.tenant().delete(s.id());
            } catch (dev.threadline.core.error.SessionNotFoundException gone) {
                // deleted by another caller meanwhile: the result is the same
            }
        });
    }
}
