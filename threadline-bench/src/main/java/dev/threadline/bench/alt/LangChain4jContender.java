package dev.threadline.bench.alt;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * LangChain4j's chat memory ({@link MessageWindowChatMemory}, its window wide enough to keep the
 * whole conversation, as the other contenders do) on a persistent {@link SqliteChatMemoryStore}. A
 * step is {@code ChatMemory.add}: it reads the whole list from the store, appends, and writes the
 * whole list back.
 */
public final class LangChain4jContender implements Contender {
    private final Path file;
    private final SqliteChatMemoryStore store;
    private final Map<String, ChatMemory> memories = new ConcurrentHashMap<>();

    public LangChain4jContender(Path file) throws Exception {
        this.file = file;
        this.store = new SqliteChatMemoryStore(file);
    }

    /** The LangChain4j form of a benchmark message. */
    public static ChatMessage toChatMessage(BenchMessage m) {
        return switch (m.kind()) {
            case USER -> UserMessage.from(m.text());
            case TOOL_CALL -> AiMessage.from(ToolExecutionRequest.builder().id(m.toolUseId()).name(m.toolName())
                    .arguments(m.toolInput()).build());
            case TOOL_RESULT -> ToolExecutionResultMessage.from(m.toolUseId(), m.toolName(), m.text());
            case ANSWER -> AiMessage.from(m.text());
        };
    }

    private ChatMemory memory(String session) {
        return memories.computeIfAbsent(session, id -> MessageWindowChatMemory.builder().id(id)
                .maxMessages(Integer.MAX_VALUE).chatMemoryStore(store).build());
    }

    @Override
    public String name() {
        return "LangChain4j (sqlite)";
    }

    @Override
    public String durability() {
        return "sqlite WAL, synchronous=FULL (the same file settings as Threadline's)";
    }

    @Override
    public List<String> cannot() {
        return List.of("no checkpoints: only the latest list is kept, so no time travel, fork or rewind",
                "no compare-and-set: two writers of one memory overwrite each other's messages");
    }

    @Override
    public void prefill(String session, List<BenchMessage> history) {
        store.updateMessages(session, history.stream().map(LangChain4jContender::toChatMessage).toList());
    }

    @Override
    public void step(String session, BenchMessage message) {
        memory(session).add(toChatMessage(message));
    }

    @Override
    public Optional<Path> database() {
        return Optional.of(file);
    }

    @Override
    public OptionalInt coldLoad(String session) throws Exception {
        try (SqliteChatMemoryStore fresh = new SqliteChatMemoryStore(file)) {
            ChatMemory m = MessageWindowChatMemory.builder().id(session).maxMessages(Integer.MAX_VALUE)
                    .chatMemoryStore(fresh).build();
            return OptionalInt.of(m.messages().size());
        }
    }

    /** The memory keeps nothing between calls; this is the list every call materializes. */
    @Override
    public Object heldInMemory(String session) {
        return memory(session).messages();
    }

    @Override
    public long serializedBytes(String session) throws Exception {
        return store.storedBytes(session);
    }

    @Override
    public void close() throws Exception {
        store.close();
    }
}
