package dev.threadline.bench.alt;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.bench.kit.SqliteFiles;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;
import org.springframework.ai.chat.memory.repository.jdbc.SqliteChatMemoryRepositoryDialect;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Spring AI's {@link MessageWindowChatMemory} (window wide enough for the whole conversation) on its
 * {@link JdbcChatMemoryRepository} with the SQLite dialect it ships, through a HikariCP pool of
 * SQLite connections at the benchmark's durability, and the schema script it ships. A step is
 * {@code ChatMemory.add}: it reads the conversation, then {@code saveAll} deletes its rows and inserts
 * every message again, in one transaction.
 */
public final class SpringAiContender implements Contender {
    /** Whether the Spring AI on the class path is 2.x or later (its JDBC repository then drops tool messages). */
    private static final boolean DROPS_TOOL_MESSAGES = !String.valueOf(
            JdbcChatMemoryRepository.class.getPackage().getImplementationVersion()).startsWith("1.");
    private final Path file;
    private final HikariDataSource pool;
    private final JdbcChatMemoryRepository repository;
    private final ChatMemory memory;

    public SpringAiContender(Path file) throws Exception {
        this.file = file;
        this.pool = pool(file);
        try (Connection c = pool.getConnection();
             InputStream in = JdbcChatMemoryRepository.class.getResourceAsStream("schema-sqlite.sql")) {
            for (String ddl : new String(in.readAllBytes(), StandardCharsets.UTF_8).split(";")) {
                if (!ddl.isBlank()) {
                    SqliteFiles.exec(c, ddl);
                }
            }
        }
        this.repository = repository(pool);
        this.memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(Integer.MAX_VALUE).build();
    }

    private static HikariDataSource pool(Path file) {
        HikariConfig hc = new HikariConfig();
        hc.setDataSource(SqliteFiles.dataSource(file));
        hc.setMaximumPoolSize(4);
        hc.setConnectionInitSql("PRAGMA wal_autocheckpoint = 0");
        hc.setPoolName("spring-ai-sqlite");
        return new HikariDataSource(hc);
    }

    private static JdbcChatMemoryRepository repository(HikariDataSource pool) {
        return JdbcChatMemoryRepository.builder().dataSource(pool).dialect(new SqliteChatMemoryRepositoryDialect()).build();
    }

    /** The Spring AI form of a benchmark message. */
    public static Message toMessage(BenchMessage m) {
        return switch (m.kind()) {
            case USER -> new UserMessage(m.text());
            case TOOL_CALL -> AssistantMessage.builder().content("").toolCalls(List.of(
                    new AssistantMessage.ToolCall(m.toolUseId(), "function", m.toolName(), m.toolInput()))).build();
            case TOOL_RESULT -> ToolResponseMessage.builder().responses(List.of(
                    new ToolResponseMessage.ToolResponse(m.toolUseId(), m.toolName(), m.text()))).build();
            case ANSWER -> new AssistantMessage(m.text());
        };
    }

    @Override
    public String name() {
        return "Spring AI JDBC (sqlite)";
    }

    @Override
    public String durability() {
        return "sqlite WAL, synchronous=FULL (the same file settings as Threadline's), through HikariCP";
    }

    @Override
    public List<String> cannot() {
        return List.of("drops tool calls and tool results (2.x; 1.1 stored each message's text and type only, losing call ids, names, arguments and results)",
                "no checkpoints: only the latest list is kept, so no time travel, fork or rewind",
                "no compare-and-set: two writers of one conversation overwrite each other's messages");
    }

    @Override
    public void prefill(String session, List<BenchMessage> history) {
        repository.saveAll(session, history.stream().map(SpringAiContender::toMessage).toList());
    }

    @Override
    public void step(String session, BenchMessage message) {
        memory.add(session, toMessage(message));
    }

    /** Spring AI 2's JDBC repository drops tool calls and tool responses on save; 1.1's keeps their text. */
    @Override
    public int loadable(int messages) {
        if (!DROPS_TOOL_MESSAGES) {
            return messages;
        }
        return (int) BenchMessage.range(0, messages).stream()
                .filter(m -> m.kind() == BenchMessage.Kind.USER || m.kind() == BenchMessage.Kind.ANSWER).count();
    }

    @Override
    public Optional<Path> database() {
        return Optional.of(file);
    }

    @Override
    public OptionalInt coldLoad(String session) {
        try (HikariDataSource fresh = pool(file)) {
            return OptionalInt.of(repository(fresh).findByConversationId(session).size());
        }
    }

    /** The memory keeps nothing between calls; this is the list every call materializes. */
    @Override
    public Object heldInMemory(String session) {
        return memory.get(session);
    }

    @Override
    public long serializedBytes(String session) throws Exception {
        try (Connection c = pool.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT sum(length(CAST(content AS BLOB)) + length(type) + 8)"
                     + " FROM SPRING_AI_CHAT_MEMORY WHERE conversation_id = ?")) {
            ps.setString(1, session);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
