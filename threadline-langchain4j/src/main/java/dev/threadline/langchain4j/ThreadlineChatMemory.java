package dev.threadline.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.threadline.core.error.Require;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/**
 * A LangChain4j {@link ChatMemory} on a Threadline session that appends instead of rewriting: every
 * {@link #add} is one step appending the message to the journal, never a read-modify-write of the
 * whole list, so concurrent adders lose nothing and each thread's messages keep their order.
 *
 * <p>{@link #messages()} is a window over the conversation, computed when read: the system message and
 * the last {@code maxMessages} messages, evicting as LangChain4j's {@code MessageWindowChatMemory} does
 * (an AI message with tool requests leaves together with its results). Nothing leaves the journal, so a
 * larger window later shows more. Tool requests and results stay paired: a result must answer an open
 * request of the last AI message; a message that follows while requests are unanswered closes each of
 * them with an error result, so the model never sees a request without its result.
 *
 * <p>System messages are as in {@code MessageWindowChatMemory}: adding the one already held does
 * nothing, another replaces it (at the start when {@code alwaysKeepSystemMessageFirst}, else at the end).
 * {@link #clear()} starts an empty view; the history stays in the journal. Thread-safe.
 */
public final class ThreadlineChatMemory implements ChatMemory {
    private final Object id;
    private final MemorySessions sessions;
    private final int maxMessages;
    private final boolean systemFirst;

    private ThreadlineChatMemory(Builder b) {
        this.id = b.id;
        this.sessions = new MemorySessions(b.tenant, b.config);
        this.maxMessages = b.maxMessages;
        this.systemFirst = b.systemFirst;
    }

    /** A builder for a memory in {@code tenant}. */
    public static Builder builder(Tenant tenant) {
        return new Builder(Require.nonNull(tenant, "tenant"));
    }

    /** The memory id (default {@code "default"}). */
    @Override
    public Object id() {
        return id;
    }

    /** The Threadline session that holds this memory, created when missing. */
    public Session session() {
        return sessions.openOrCreate(id);
    }

    /**
     * Appends one message in one step.
     *
     * @throws IllegalArgumentException when the message cannot be stored, or is a tool result that
     *                                  answers no open request of the last AI message
     */
    @Override
    public void add(ChatMessage message) {
        Require.nonNull(message, "message");
        MemoryWriter.append(sessions, session(), List.of(message), systemFirst);
    }

    /**
     * Appends the messages in one step: all or none.
     *
     * @throws IllegalArgumentException as {@link #add(ChatMessage)}
     */
    @Override
    public void add(Iterable<ChatMessage> messages) {
        if (messages == null) {
            return;
        }
        List<ChatMessage> list = new ArrayList<>();
        messages.forEach(m -> list.add(Require.nonNull(m, "message")));
        if (!list.isEmpty()) {
            MemoryWriter.append(sessions, session(), list, systemFirst);
        }
    }

    /**
     * Replaces the view with {@code messages} in one step; a list that extends the view only appends.
     *
     * @throws IllegalArgumentException when {@code messages} is null or empty, or a message cannot be stored
     */
    @Override
    public void set(Iterable<ChatMessage> messages) {
        if (messages == null || !messages.iterator().hasNext()) {
            throw new IllegalArgumentException("messages must not be empty");
        }
        List<ChatMessage> list = new ArrayList<>();
        messages.forEach(list::add);
        MemoryWriter.replace(sessions, session(), list);
    }

    /** The window over the conversation: the system message and the last {@code maxMessages} messages in all. */
    @Override
    public List<ChatMessage> messages() {
        List<ChatMessage> all = sessions.find(id).map(s -> sessions.view(s.id(), s.state()).messages()).orElseGet(List::of);
        return window(all, maxMessages);
    }

    /** Starts an empty view; the journal keeps the history (Threadline's clear). */
    @Override
    public void clear() {
        sessions.find(id).ifPresent(s -> MemoryWriter.clear(sessions, s));
    }

    /** Evicts as MessageWindowChatMemory does: the oldest message after a leading system message, with an AI message's results. */
    static List<ChatMessage> window(List<ChatMessage> messages, int max) {
        if (messages.size() <= max) {
            return new ArrayList<>(messages);
        }
        LinkedList<ChatMessage> out = new LinkedList<>(messages);
        while (out.size() > max) {
            int evict = out.getFirst() instanceof SystemMessage ? 1 : 0;
            ChatMessage gone = out.remove(evict);
            if (gone instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                while (out.size() > evict && out.get(evict) instanceof ToolExecutionResultMessage) {
                    out.remove(evict);
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** Builds a {@link ThreadlineChatMemory}. Not thread-safe. */
    public static final class Builder {
        private final Tenant tenant;
        private Object id = "default";
        private int maxMessages = Integer.MAX_VALUE;
        private boolean systemFirst;
        private SessionConfig config = SessionConfig.DEFAULT;

        private Builder(Tenant tenant) {
            this.tenant = tenant;
        }

        /** The memory id; its session is the id's text, or a hash of it when that is not a valid session id. */
        public Builder id(Object id) {
            this.id = Require.nonNull(id, "id");
            return this;
        }

        /**
         * How many messages {@link #messages()} returns at most, system message included (default: all).
         *
         * @throws dev.threadline.core.error.InvalidInputException when {@code max} is less than 1
         */
        public Builder maxMessages(int max) {
            Require.argument(max >= 1, "maxMessages", "must be at least 1, was " + max);
            this.maxMessages = max;
            return this;
        }

        /** Whether a new system message goes first rather than last (default false, as in LangChain4j). */
        public Builder alwaysKeepSystemMessageFirst(boolean first) {
            this.systemFirst = first;
            return this;
        }

        /** The config of the session when it is created (default {@link SessionConfig#DEFAULT}). */
        public Builder sessionConfig(SessionConfig config) {
            this.config = Require.nonNull(config, "config");
            return this;
        }

        /** The memory. */
        public ThreadlineChatMemory build() {
            return new ThreadlineChatMemory(this);
        }
    }
}
