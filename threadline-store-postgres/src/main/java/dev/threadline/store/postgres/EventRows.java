package dev.threadline.store.postgres;

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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The {@code events} table (migration 4): one row per journal entry keyed by the session's number and
 * the seq, inserted once by the step that wrote it. The payload is the event's {@link RecordCodec}
 * JSON with the version {@code v} it was written in; a transcript row sealed into a segment (ADR 0028,
 * {@link SegmentRows}) keeps its envelope and has a NULL payload, the only update a row ever gets.
 * A command id in the runtime's UUID form is the {@code uuid} column (16 bytes), any other id text.
 * A store opened with keys writes the payload sealed into {@code payload_sealed} ({@code bytea}, migration 11)
 * instead, under the place of the event (ADR 0049); a read takes whichever of the two is set.
 * Stateless.
 */
final class EventRows {
    /** The session's number from its key, inside the statement (two parameters: tenant, id). */
    static final String SID = "(SELECT sid FROM sessions WHERE tenant = ? AND id = ?)";
    private static final String COLUMNS = "seq, step, time, command_id, command_text, source, touches_transcript, payload, v";
    /** {@link #COLUMNS} and the sealed payload, as a read since migration 11 selects them. */
    private static final String READ = COLUMNS + ", payload_sealed";

    private EventRows() {}

    /**
     * An event ready to insert, encoded (and sealed, with keys) before a connection is taken: {@code commandUuid}
     * is set when the command id is a canonical UUID, {@code commandText} otherwise; {@code payload} is the
     * event's JSON, or null when {@code sealed} holds it sealed.
     */
    record Row(long seq, long step, long time, UUID commandUuid, String commandText, String source, boolean transcript,
               String payload, byte[] sealed) {
        /** A row with its payload in clear. */
        Row(long seq, long step, long time, UUID commandUuid, String commandText, String source, boolean transcript,
            String payload) {
            this(seq, step, time, commandUuid, commandText, source, transcript, payload, null);
        }

        static Row of(SessionKey key, StoredEvent e, Sealing sealing) {
            UUID u = CanonicalUuid.of(e.commandId());
            String json = RecordCodec.encodeEvent(e.event());
            byte[] sealed = sealing.on() ? sealing.seal(json, Sealing.Place.event(key.tenant(), key.id(), e.seq())) : null;
            return new Row(e.seq(), e.step(), EpochNanos.of(e.time()), u, u == null ? e.commandId() : null,
                    e.source().wireName(), e.event().touchesTranscript(), sealed == null ? json : null, sealed);
        }
    }

    /** The events as rows with their payloads in clear. */
    static List<Row> encode(List<StoredEvent> events) {
        return encode(null, events, Sealing.TEXT);
    }

    /** The events of session {@code key} as rows, their payloads sealed when {@code sealing} is on. */
    static List<Row> encode(SessionKey key, List<StoredEvent> events, Sealing sealing) {
        if (events == null) {
            return List.of();
        }
        List<Row> rows = new ArrayList<>(events.size()); // a loop, not a stream: this runs at every append
        for (StoredEvent e : events) {
            rows.add(Row.of(key, e, sealing));
        }
        return rows;
    }

    /** Whether the rows' payloads are sealed (all of a step's are, or none). */
    static boolean sealed(List<Row> rows) {
        return !rows.isEmpty() && rows.get(0).sealed() != null;
    }

    /** Binds a row's command id: the uuid column or the text one, the other NULL. */
    static int bindCommand(PreparedStatement ps, int i, Row r) throws SQLException {
        if (r.commandUuid() != null) {
            ps.setObject(i, r.commandUuid());
            ps.setNull(i + 1, Types.VARCHAR);
        } else {
            ps.setNull(i, Types.OTHER);
            ps.setString(i + 1, r.commandText());
        }
        return i + 2;
    }

    static void insert(Connection c, SessionKey key, List<Row> rows) throws SQLException {
        boolean sealed = sealed(rows);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (sid, " + (sealed ? COLUMNS.replace("payload", "payload_sealed")
                : COLUMNS) + ") VALUES (" + SID + ", ?, ?, ?, ?::uuid, ?, ?, ?, ?, ?)")) {
            for (Row r : rows) {
                ps.setString(1, key.tenant());
                ps.setString(2, key.id());
                ps.setLong(3, r.seq());
                ps.setLong(4, r.step());
                ps.setLong(5, r.time());
                int i = bindCommand(ps, 6, r);
                ps.setString(i++, r.source());
                ps.setBoolean(i++, r.transcript());
                if (sealed) {
                    ps.setBytes(i++, r.sealed());
                } else {
                    ps.setString(i++, r.payload());
                }
                ps.setShort(i, (short) RecordCodec.VERSION);
                if (rows.size() == 1) {
                    ps.executeUpdate();
                    return;
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The session's own events with {@code fromSeq <= seq <= toSeq}, in order; optionally only transcript
     * ones. Rows whose payload is in a segment are read first and their segments after (a row once put in a
     * segment stays there, its segment committed with it, so the later statement finds it: {@link SegmentRows}).
     * A payload sealed at rest is opened by {@code sealing} (or refused by a store without keys); a null
     * {@code sealing} reads a schema older than migration 11, which has no sealed column (migration 8's indexing).
     */
    static List<StoredEvent> select(Connection c, SessionKey key, long fromSeq, long toSeq, boolean transcriptOnly,
                                    Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + (sealing == null ? COLUMNS : READ) + " FROM events WHERE sid = " + SID
                + " AND seq BETWEEN ? AND ?" + (transcriptOnly ? " AND touches_transcript" : "") + " ORDER BY seq")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, fromSeq);
            ps.setLong(4, toSeq);
            ps.setFetchSize(1000); // a long range is streamed (needs a transaction) or read whole (auto-commit)
            List<StoredEvent> out = new ArrayList<>();
            List<Segments.Envelope> sealed = null; // rows whose payload is in a segment (ADR 0028)
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String payload = rs.getString(8);
                    byte[] atRest = payload != null || sealing == null ? null : rs.getBytes(10);
                    if (atRest != null) {
                        long seq = rs.getLong(1);
                        out.add(decode(key.id(), rs, sealing.open(atRest, Sealing.Place.event(key.tenant(), key.id(), seq))));
                    } else if (payload == null && rs.getBoolean(7)) {
                        sealed = sealed == null ? new ArrayList<>() : sealed;
                        sealed.add(envelope(out.size(), key.id(), rs));
                        out.add(null);
                    } else {
                        out.add(decode(key.id(), rs, payload));
                    }
                }
            }
            return sealed == null ? out : Segments.fill(key.id(), out, sealed,
                    SegmentRows.reader(c, key, sealing == null ? Sealing.TEXT : sealing));
        }
    }

    /** The envelope of a sealed row (its event is in a segment), at place {@code index} of the read. */
    private static Segments.Envelope envelope(int index, String sessionId, ResultSet rs) throws SQLException {
        long seq = rs.getLong(1);
        try {
            return new Segments.Envelope(index, seq, rs.getLong(2), EpochNanos.instant(rs.getLong(3)), commandId(rs),
                    CheckpointSource.fromWire(rs.getString(6)));
        } catch (RuntimeException e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row ("
                    + OneLine.of(e.getMessage()) + ")", e);
        }
    }

    /** The command id of the row at {@code rs}: columns 4 (uuid) and 5 (text), exactly one of them set. */
    private static String commandId(ResultSet rs) throws SQLException {
        String uuid = rs.getString(4);
        String text = rs.getString(5);
        if ((uuid == null) == (text == null)) {
            throw new IllegalArgumentException(uuid == null ? "no command id" : "two command ids");
        }
        return uuid != null ? uuid : text;
    }

    /** One row; a corrupt one is a one-line {@link StorageException} naming its session and seq. */
    private static StoredEvent decode(String sessionId, ResultSet rs, String payload) throws SQLException {
        long seq = rs.getLong(1);
        Event event;
        try {
            event = RecordCodec.decodeEvent(sessionId, seq, rs.getInt(9), payload);
        } catch (StorageException e) {
            throw OneLine.of(e);
        }
        return envelope(sessionId, rs, seq, event);
    }

    /** One row whose payload was sealed at rest, opened to its JSON's bytes. */
    private static StoredEvent decode(String sessionId, ResultSet rs, byte[] payload) throws SQLException {
        long seq = rs.getLong(1);
        Event event;
        try {
            event = RecordCodec.decodeEvent(sessionId, seq, rs.getInt(9), payload);
        } catch (StorageException e) {
            throw OneLine.of(e);
        }
        return envelope(sessionId, rs, seq, event);
    }

    private static StoredEvent envelope(String sessionId, ResultSet rs, long seq, Event event) throws SQLException {
        try {
            return new StoredEvent(sessionId, seq, rs.getLong(2), EpochNanos.instant(rs.getLong(3)), commandId(rs),
                    CheckpointSource.fromWire(rs.getString(6)), event);
        } catch (RuntimeException e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row ("
                    + OneLine.of(e.getMessage()) + ")", e);
        }
    }

    static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM events WHERE sid = " + SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }
}
