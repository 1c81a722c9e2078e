package dev.threadline.bench.alt;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.threadline.bench.kit.SqliteFiles;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A persistent LangChain4j {@link ChatMemoryStore} the way its documentation shows one: a memory's
 * whole message list, serialized with {@link ChatMessageSerializer}, in one row per memory id, replaced
 * at every {@code updateMessages}. One SQLite connection at the benchmark's durability (WAL,
 * synchronous=FULL), used under a lock.
 */
public final class SqliteChatMemoryStore implements ChatMemoryStore, AutoCloseable {
    private final Connection c;

    public SqliteChatMemoryStore(Path file) throws SQLException {
        this.c = SqliteFiles.open(file);
        SqliteFiles.exec(c, "CREATE TABLE IF NOT EXISTS chat_memory (id TEXT PRIMARY KEY, messages TEXT NOT NULL)");
    }

    @Override
    public synchronized List<ChatMessage> getMessages(Object memoryId) {
        try (PreparedStatement ps = c.prepareStatement("SELECT messages FROM chat_memory WHERE id = ?")) {
            ps.setString(1, memoryId.toString());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? ChatMessageDeserializer.messagesFromJson(rs.getString(1)) : List.of();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void updateMessages(Object memoryId, List<ChatMessage> messages) {
        String json = ChatMessageSerializer.messagesToJson(messages);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO chat_memory (id, messages) VALUES (?, ?)"
                + " ON CONFLICT (id) DO UPDATE SET messages = excluded.messages")) {
            ps.setString(1, memoryId.toString());
            ps.setString(2, json);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void deleteMessages(Object memoryId) {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM chat_memory WHERE id = ?")) {
            ps.setString(1, memoryId.toString());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The stored size of a memory's row, in bytes. */
    public synchronized long storedBytes(Object memoryId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT length(CAST(messages AS BLOB)) FROM chat_memory WHERE id = ?")) {
            ps.setString(1, memoryId.toString());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    @Override
    public synchronized void close() throws SQLException {
        c.close();
    }
}
