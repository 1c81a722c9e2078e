package dev.threadline.bench.alt;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.Threadline;
import dev.threadline.langchain4j.ThreadlineChatMemory;
import dev.threadline.langchain4j.ThreadlineChatMemoryStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * LangChain4j on Threadline, through the {@code threadline-langchain4j} adapter, on a Threadline SQLite
 * file: either its {@link ThreadlineChatMemory} (a step is {@code add}: one journal append, no read of
 * the list) or LangChain4j's own {@link MessageWindowChatMemory} on its {@link ThreadlineChatMemoryStore}
 * (a step is {@code add}: LangChain4j reads the list and hands the whole list back to
 * {@code updateMessages}, which appends only the new message). Window wide enough for the whole
 * conversation, as for the other contenders.
 */
public final class ThreadlineChatMemoryContender implements Contender {
    private final OnThreadline tl;
    private final boolean viaStore;
    private final ThreadlineChatMemoryStore store;
    private final Map<String, ChatMemory> memories = new ConcurrentHashMap<>();

    /** {@code viaStore}: LangChain4j's MessageWindowChatMemory on the adapter's ChatMemoryStore; else ThreadlineChatMemory. */
    public ThreadlineChatMemoryContender(Path file, boolean viaStore) {
        this.tl = new OnThreadline(file);
        this.viaStore = viaStore;
        this.store = new ThreadlineChatMemoryStore(tl.runtime.defaultTenant());
    }

    private ChatMemory memory(String session) {
        return memories.computeIfAbsent(session, id -> open(tl.runtime, store, id));
    }

    private ChatMemory open(Threadline runtime, ThreadlineChatMemoryStore s, String id) {
        return viaStore
                ? MessageWindowChatMemory.builder().id(id).maxMessages(Integer.MAX_VALUE).chatMemoryStore(s).build()
                : ThreadlineChatMemory.builder(runtime.defaultTenant()).id(id).build();
    }

    @Override
    public String name() {
        return viaStore ? "LangChain4j MessageWindowChatMemory on ThreadlineChatMemoryStore (sqlite)"
                : "LangChain4j ThreadlineChatMemory (sqlite)";
    }

    @Override
    public String durability() {
        return OnThreadline.durability();
    }

    @Override
    public List<String> cannot() {
        return List.of();
    }

    /** In steps of 100 messages (as Threadline's own prefill), or one updateMessages of the whole list via the store. */
    @Override
    public void prefill(String session, List<BenchMessage> history) {
        List<ChatMessage> messages = history.stream().map(LangChain4jContender::toChatMessage).toList();
        if (viaStore) {
            store.updateMessages(session, messages);
            return;
        }
        ChatMemory m = memory(session);
        for (int from = 0; from < messages.size(); from += 100) {
            m.add(messages.subList(from, Math.min(messages.size(), from + 100)));
        }
    }

    @Override
    public void step(String session, BenchMessage message) {
        memory(session).add(LangChain4jContender.toChatMessage(message));
    }

    @Override
    public Optional<Path> database() {
        return Optional.of(tl.file);
    }

    @Override
    public OptionalInt coldLoad(String session) {
        try (Threadline fresh = tl.fresh()) {
            return OptionalInt.of(open(fresh, new ThreadlineChatMemoryStore(fresh.defaultTenant()), session).messages().size());
        }
    }

    /** The list a call materializes (the adapter keeps the session's state cached, as the runtime does). */
    @Override
    public Object heldInMemory(String session) {
        return memory(session).messages();
    }

    @Override
    public long serializedBytes(String session) throws Exception {
        return tl.journalBytes(SessionInfo.DEFAULT_TENANT, ThreadlineChatMemoryStore.sessionId(session));
    }

    @Override
    public void close() {
        tl.close();
    }
}
