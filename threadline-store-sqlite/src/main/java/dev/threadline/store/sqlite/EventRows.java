package dev.threadline.store.sqlite;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.CanonicalUuid;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.internal.store.Segments;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.OneLine;
import dev.threadline.store.jdbc.Sealing;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The {@code events} table: one row per journal entry, written once and never updated, in the b-tree
 * of its key (the session's number {@code sid}, seq). The payload is the event's JSON from {@link RecordCodec}, stored
 * with the version {@code v} it was written in; the time is epoch nanoseconds ({@link Instants#nanos});
 * a command id in the runtime's UUID form is its 16 bytes ({@link #uuidBytes}).
 */
final class EventRows {
    private static final String COLUMNS = "seq, step, time, command_id, source, touches_transcript, payload, v";

    private EventRows() {}

    /** An event ready to insert, encoded before the write lock is taken. */
    record Row(long seq, long step, long time, String commandId, String source, boolean transcript, String payload) {
        static Row of(StoredEvent e) {
            return new Row(e.seq(), e.step(), EpochNanos.of(e.time()), e.commandId(), e.source().wireName(),
                    e.event().touchesTranscript(), RecordCodec.encodeEvent(e.event()));
        }
    }

    /**
     * A command id in the canonical lower-case UUID form (as the runtime makes them) as its 16 bytes,
     * 20 fewer than its text; any other id (a caller's own) is stored as text. Null for those.
     */
    static byte[] uuidBytes(String id) {
        UUID u = CanonicalUuid.of(id);
        return u == null ? null
                : ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }

    /** The command id column as text: a 16-byte blob is a packed UUID ({@link #uuidBytes}). */
    static String commandId(Object column) {
        if (column instanceof byte[] b) {
            if (b.length != 16) {
                throw new IllegalArgumentException("command id is a blob of " + b.length + " bytes, not a UUID's 16");
            }
            ByteBuffer buf = ByteBuffer.wrap(b);
            return new UUID(buf.getLong(), buf.getLong()).toString();
        }
        if (column instanceof String text) {
            return text;
        }
        throw new IllegalArgumentException("command id is " + (column == null ? "null" : "not text"));
    }

    /** {@code now - time}, saturated (only instants centuries apart could overflow it). */
    static long appended(long now, long time) {
        try {
            return Math.subtractExact(now, time);
        } catch (ArithmeticException e) {
            return now < time ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    static List<Row> encode(List<StoredEvent> events) {
        return events == null ? List.of() : events.stream().map(Row::of).toList();
    }

    /**
     * Inserts the rows of one append; the last one carries the append's time {@code now} (as
     * {@code appended}, its distance from the event's own time), which is the session's last update.
     */
    static void insert(Connection c, SessionKey key, List<Row> rows, Instant now, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO events (sid, " + COLUMNS + ", appended) VALUES (" + SessionRows.SID + ", ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int n = 0; n < rows.size(); n++) {
                Row r = rows.get(n);
                ps.setString(1, key.tenant());
                ps.setString(2, key.id());
                ps.setLong(3, r.seq());
                ps.setLong(4, r.step());
                ps.setLong(5, r.time());
                byte[] uuid = uuidBytes(r.commandId());
                if (uuid != null) {
                    ps.setBytes(6, uuid);
                } else {
                    ps.setString(6, r.commandId());
                }
                ps.setString(7, r.source());
                ps.setInt(8, r.transcript() ? 1 : 0);
                sealing.bind(ps, 9, r.payload(), Sealing.Place.event(key.tenant(), key.id(), r.seq()));
                ps.setInt(10, RecordCodec.VERSION);
                if (n == rows.size() - 1) {
                    ps.setLong(11, appended(EpochNanos.of(now), r.time()));
                } else {
                    ps.setNull(11, java.sql.Types.INTEGER);
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The session's own events with {@code fromSeq <= seq <= toSeq}, in order; optionally only transcript ones. */
    static List<StoredEvent> select(Connection c, SessionKey key, long fromSeq, long toSeq, boolean transcriptOnly)
            throws SQLException {
        return select(c, key, fromSeq, toSeq, transcriptOnly, Sealing.PLAIN);
    }

    /** {@link #select(Connection, SessionKey, long, long, boolean)}, the payloads opened when they are sealed. */
    static List<StoredEvent> select(Connection c, SessionKey key, long fromSeq, long toSeq, boolean transcriptOnly, Sealing sealing)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM events"
                + " WHERE sid = " + SessionRows.SID + " AND seq BETWEEN ? AND ?" + (transcriptOnly ? " AND touches_transcript = 1" : "")
                + " ORDER BY seq")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, fromSeq);
            ps.setLong(4, toSeq);
            try (ResultSet rs = ps.executeQuery()) {
                List<StoredEvent> out = new ArrayList<>();
                List<Segments.Envelope> sealed = null; // rows whose payload is in a segment (ADR 0028)
                while (rs.next()) {
                    // UTF-8 bytes straight to the parser (opened first when sealed)
                    byte[] payload = sealing.bytes(rs, 7, Sealing.Place.event(key.tenant(), key.id(), rs.getLong(1)));
                    if (payload == null && rs.getInt(6) == 1) {
                        sealed = sealed == null ? new ArrayList<>() : sealed;
                        sealed.add(envelope(out.size(), key.id(), rs));
                        out.add(null);
                    } else {
                        out.add(decode(key.id(), rs, payload));
                    }
                }
                return sealed == null ? out : Segments.fill(key.id(), out, sealed, SegmentRows.reader(c, key, sealing));
            }
        }
    }

    /** The envelope of a sealed row (its event is in a segment), at place {@code index} of the read. */
    private static Segments.Envelope envelope(int index, String sessionId, ResultSet rs) throws SQLException {
        long seq = rs.getLong(1);
        try {
            return new Segments.Envelope(index, seq, rs.getLong(2), time(rs), commandId(rs.getObject(4)),
                    CheckpointSource.fromWire(rs.getString(5)));
        } catch (RuntimeException e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row ("
                    + OneLine.of(e.getMessage()) + ")", e);
        }
    }

    /** The time column; a text there would read as 0 through getLong. */
    private static Instant time(ResultSet rs) throws SQLException {
        if (!(rs.getObject(3) instanceof Number time)) {
            throw new IllegalArgumentException("time is not an integer of nanoseconds: '" + rs.getString(3) + "'");
        }
        return EpochNanos.instant(time.longValue());
    }

    static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM events WHERE sid = " + SessionRows.SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }

    /** One row; a corrupt one is a one-line {@link StorageException} naming its session and seq. */
    private static StoredEvent decode(String sessionId, ResultSet rs, byte[] payload) throws SQLException {
        // columns by position, in the order of COLUMNS (a lookup by name costs more than the read)
        long seq = rs.getLong(1);
        Event event;
        try {
            event = RecordCodec.decodeEvent(sessionId, seq, rs.getInt(8), payload);
        } catch (StorageException e) {
            throw OneLine.of(e); // the parser's detail runs onto more lines
        }
        try {
            return new StoredEvent(sessionId, seq, rs.getLong(2), time(rs), commandId(rs.getObject(4)),
                    CheckpointSource.fromWire(rs.getString(5)), event);
        } catch (RuntimeException e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row ("
                    + OneLine.of(e.getMessage()) + ")", e);
        }
    }
}
