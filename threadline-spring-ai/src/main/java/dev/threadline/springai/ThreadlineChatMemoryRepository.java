package dev.threadline.springai;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Tenant;
import java.util.List;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;
import org.springframework.util.Assert;

/**
 * A Spring AI {@link ChatMemoryRepository} on Threadline: one session per conversation in one tenant.
 * Unlike Spring AI's JDBC repository it keeps tool calls ({@code AssistantMessage.ToolCall}) and tool
 * responses ({@code ToolResponseMessage}), paired: a response must follow the assistant message whose
 * calls it answers (a window that evicted that message may still start with the response).
 *
 * <p>{@link #saveAll} replaces the conversation's messages without rewriting the journal: a list that
 * extends the stored one appends only the new messages; a window that dropped its oldest messages and
 * added new ones moves the view's start; any other list becomes a new view after a clear, and the old
 * messages stay in the journal (reachable with Threadline's checkpoints, fork and rewind).
 *
 * <p>A save costs what changed, not the history: the repository keeps each conversation's last view (of up to
 * 256), hands out the same message objects again (treat them as immutable, as Spring AI's window memory does),
 * and recognises them, by identity, at the start of the list {@code saveAll} gets back, so that only the
 * messages after them are converted and compared.
 *
 * <p>Thread-safe: each save is one step of the session, decided on its current state; several
 * processes may share a store.
 */
public final class ThreadlineChatMemoryRepository implements ChatMemoryRepository {
    private final Conversations conversations;

    /** A repository whose new sessions get {@link SessionConfig#DEFAULT}. */
    public ThreadlineChatMemoryRepository(Tenant tenant) {
        this(tenant, SessionConfig.DEFAULT);
    }

    /** A repository whose new sessions get {@code config} (it matters only to Threadline's own turns). */
    public ThreadlineChatMemoryRepository(Tenant tenant, SessionConfig config) {
        this.conversations = new Conversations(tenant, config);
    }

    /** The conversations and their last views (the tests compare the views it builds with views built afresh). */
    Conversations conversations() {
        return conversations;
    }

    /** The Threadline session id that holds the conversation. */
    public static String sessionId(String conversationId) {
        check(conversationId);
        return Conversations.sessionId(conversationId);
    }

    /** The ids of the conversations this repository saved in the tenant, most recently updated first. */
    @Override
    public List<String> findConversationIds() {
        return conversations.ids();
    }

    /**
     * The conversation's messages, empty when it has none.
     *
     * @throws IllegalArgumentException when the id is null or empty
     */
    @Override
    public List<Message> findByConversationId(String conversationId) {
        check(conversationId);
        return conversations.find(conversationId).map(s -> conversations.view(s.id(), s.state()).messages()).orElseGet(List::of);
    }

    /**
     * Makes the conversation hold {@code messages}, appending only what is new (see the class comment).
     *
     * @throws IllegalArgumentException when the id is null or empty, the list or an element is null, a
     *                                  message holds media, or a tool response does not follow its calls
     */
    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        check(conversationId);
        Assert.notNull(messages, "messages cannot be null");
        Assert.noNullElements(messages, "messages cannot contain null elements");
        MemoryWriter.replace(conversations, conversations.openOrCreate(conversationId), messages);
    }

    /**
     * Deletes the conversation's session and its journal (nothing when there is none).
     *
     * @throws IllegalArgumentException                  when the id is null or empty
     * @throws dev.threadline.core.error.InvalidInputException when forks of the session depend on it
     */
    @Override
    public void deleteByConversationId(String conversationId) {
        check(conversationId);
        conversations.find(conversationId).ifPresent(s -> {
            conversations.forget(s.id());
            try {
                conversations.tenant().delete(s.id());
            } catch (SessionNotFoundException gone) {
                // deleted by another caller meanwhile: the result is the same
            }
        });
    }

    private static void check(String conversationId) {
        Assert.hasText(conversationId, "conversationId cannot be null or empty");
    }
}
