package dev.threadline.bench.alt;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.Threadline;
import dev.threadline.springai.ThreadlineChatMemoryRepository;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;

/**
 * Spring AI's own {@link MessageWindowChatMemory} (window wide enough for the whole conversation) on the
 * {@code threadline-spring-ai} adapter's {@link ThreadlineChatMemoryRepository}, on a Threadline SQLite
 * file. A step is {@code ChatMemory.add}: Spring AI reads the conversation and hands the whole list to
 * {@code saveAll}, which appends only the new message (tool calls and results kept).
 */
public final class ThreadlineSpringAiContender implements Contender {
    private final OnThreadline tl;
    private final ThreadlineChatMemoryRepository repository;
    private final ChatMemory memory;

    public ThreadlineSpringAiContender(Path file) {
        this.tl = new OnThreadline(file);
        this.repository = new ThreadlineChatMemoryRepository(tl.runtime.defaultTenant());
        this.memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(Integer.MAX_VALUE).build();
    }

    @Override
    public String name() {
        return "Spring AI MessageWindowChatMemory on ThreadlineChatMemoryRepository (sqlite)";
    }

    @Override
    public String durability() {
        return OnThreadline.durability();
    }

    @Override
    public List<String> cannot() {
        return List.of();
    }

    @Override
    public void prefill(String session, List<BenchMessage> history) {
        repository.saveAll(session, history.stream().map(SpringAiContender::toMessage).toList());
    }

    @Override
    public void step(String session, BenchMessage message) {
        memory.add(session, SpringAiContender.toMessage(message));
    }

    @Override
    public Optional<Path> database() {
        return Optional.of(tl.file);
    }

    @Override
    public OptionalInt coldLoad(String session) {
        try (Threadline fresh = tl.fresh()) {
            return OptionalInt.of(new ThreadlineChatMemoryRepository(fresh.defaultTenant()).findByConversationId(session).size());
        }
    }

    @Override
    public Object heldInMemory(String session) {
        return memory.get(session);
    }

    @Override
    public long serializedBytes(String session) throws Exception {
        return tl.journalBytes(SessionInfo.DEFAULT_TENANT, ThreadlineChatMemoryRepository.sessionId(session));
    }

    @Override
    public void close() {
        tl.close();
    }
}
