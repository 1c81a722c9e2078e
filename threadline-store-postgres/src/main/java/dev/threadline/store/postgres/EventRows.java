package dev.threadline.store.postgres;

import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.StorageException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code events} table: one row per journal entry, inserted once by the step that wrote it and
 * never updated, so a step's cost does not grow with the history. The payload is the event's
 * {@link RecordCodec} JSON with the version {@code v} it was written in. Stateless.
 */
final class EventRows {
    private static final String COLUMNS = "seq, step, time, command_id, source, type, touches_transcript, payload, v";

    private EventRows() {}

    /** An event ready to insert, encoded before a connection is taken. */
    record Row(long seq, long step, long time, String commandId, String source, String type, boolean transcript,
               String payload) {
        static Row of(StoredEvent e) {
            return new Row(e.seq(), e.step(), EpochNanos.of(e.time()), e.commandId(), e.source().wireName(), e.event().type(),
                    e.event().touchesTranscript(), RecordCodec.encodeEvent(e.event()));
        }
    }

    static List<Row> encode(List<StoredEvent> events) {
        return events == null ? List.of() : events.stream().map(Row::of).toList();
    }

    static void insert(Connection c, SessionKey key, List<Row> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (tenant, session_id, " + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Row r : rows) {
                ps.setString(1, key.tenant());
                ps.setString(2, key.id());
                ps.setLong(3, r.seq());
                ps.setLong(4, r.step());
                ps.setLong(5, r.time());
                ps.setString(6, r.commandId());
                ps.setString(7, r.source());
                ps.setString(8, r.type());
                ps.setBoolean(9, r.transcript());
                ps.setString(10, r.payload());
                ps.setInt(11, RecordCodec.VERSION);
                if (rows.size() == 1) {
                    ps.executeUpdate();
                    return;
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The session's own events with {@code fromSeq <= seq <= toSeq}, in order; optionally only transcript ones. */
    static List<StoredEvent> select(Connection c, SessionKey key, long fromSeq, long toSeq, boolean transcriptOnly)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM events"
                + " WHERE tenant = ? AND session_id = ? AND seq BETWEEN ? AND ?"
                + (transcriptOnly ? " AND touches_transcript" : "") + " ORDER BY seq")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, fromSeq);
            ps.setLong(4, toSeq);
            ps.setFetchSize(1000); // a long range is streamed (needs a transaction) or read whole (auto-commit)
            try (ResultSet rs = ps.executeQuery()) {
                List<StoredEvent> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(decode(key.id(), rs));
                }
                return out;
            }
        }
    }

    /** One row; a corrupt one is a one-line {@link StorageException} naming its session and seq. */
    private static StoredEvent decode(String sessionId, ResultSet rs) throws SQLException {
        long seq = rs.getLong(1);
        Event event;
        try {
            event = RecordCodec.decodeEvent(sessionId, seq, rs.getInt(9), rs.getString(8));
        } catch (StorageException e) {
            throw new StorageException(OneLine.of(e.getMessage()), e.getCause() == null ? e : e.getCause());
        }
        try {
            return new StoredEvent(sessionId, seq, rs.getLong(2), EpochNanos.instant(rs.getLong(3)), rs.getString(4),
                    CheckpointSource.fromWire(rs.getString(5)), event);
        } catch (RuntimeException e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row ("
                    + OneLine.of(e.getMessage()) + ")", e);
        }
    }
}
