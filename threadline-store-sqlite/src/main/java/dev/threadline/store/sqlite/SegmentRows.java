package dev.threadline.store.sqlite;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.Segments;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.OneLine;
import dev.threadline.store.jdbc.SegmentReader;
import dev.threadline.store.jdbc.Sealing;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code segments} table (schema version 6, ADR 0028): the transcript of a session's older steps,
 * sealed when a snapshot is saved. A segment is one row of a JSON array holding the payloads of the
 * session's own transcript events with {@code first_seq <= seq <= last_seq}, in seq order; those
 * event rows keep their envelope and have a NULL payload. Segments of a session do not overlap, and a
 * row once sealed stays sealed, so a reader that sees a NULL payload finds its segment in any later
 * statement. Stateless.
 */
final class SegmentRows {
    private SegmentRows() {}

    /**
     * Seals the session's unsealed own transcript events with {@code seq <= upTo} into one new segment,
     * if there are at least {@link Segments#MIN_EVENTS} of them; inside the caller's write transaction.
     */
    static void seal(Connection c, SessionKey key, long upTo, Sealing sealing) throws SQLException {
        long after = lastSealed(c, key);
        if (upTo <= after) {
            return;
        }
        // the rows to seal, read once: their payloads go into the segment, their envelopes back into the journal
        List<String> payloads = new ArrayList<>();
        List<Object[]> envelopes = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, step, time, command_id, source, v, appended, payload"
                + " FROM events WHERE sid = " + SessionRows.SID + " AND seq > ? AND seq <= ? AND touches_transcript = 1 ORDER BY seq")) {
            bind(ps, key, after, upTo);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    envelopes.add(new Object[] {rs.getLong(1), rs.getLong(2), rs.getObject(3), rs.getObject(4), rs.getString(5),
                            rs.getInt(6), rs.getObject(7)});
                    String payload = sealing.text(rs, 8, Sealing.Place.event(key.tenant(), key.id(), rs.getLong(1)));
                    if (payload != null) {
                        payloads.add(RecordCodec.sealable(key.id(), rs.getLong(1), rs.getInt(6), payload));
                    }
                }
            }
        }
        if (payloads.size() < Segments.MIN_EVENTS) {
            return;
        }
        if (envelopes.size() != payloads.size()) { // a sealed row after the last segment: the store is damaged
            throw new StorageException("session '" + key.id() + "': sealing seq " + (after + 1) + ".." + upTo + " found "
                    + payloads.size() + " payloads but " + envelopes.size() + " rows");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO segments (sid, last_seq, first_seq, v, payloads)"
                + " VALUES (" + SessionRows.SID + ", ?, ?, ?, ?)")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, upTo);
            ps.setLong(4, after + 1);
            ps.setInt(5, RecordCodec.VERSION);
            sealing.bind(ps, 6, RecordCodec.encodeSegment(payloads), Sealing.Place.segment(key.tenant(), key.id(), upTo));
            ps.executeUpdate();
        }
        // delete and insert again rather than UPDATE: SQLite merges the pages a delete leaves underfull, where
        // an update that shrinks rows in place leaves every leaf of the sealed range mostly empty
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM events WHERE sid = " + SessionRows.SID
                + " AND seq > ? AND seq <= ? AND touches_transcript = 1")) {
            bind(ps, key, after, upTo);
            ps.executeUpdate();
        }
        CrashPoint.SEGMENT_WRITE.reach(); // the segment is in and its rows out, uncommitted: a halt here must lose neither
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (sid, seq, step, time, command_id, source,"
                + " touches_transcript, payload, v, appended) VALUES (" + SessionRows.SID + ", ?, ?, ?, ?, ?, 1, NULL, ?, ?)")) {
            for (Object[] e : envelopes) {
                ps.setString(1, key.tenant());
                ps.setString(2, key.id());
                for (int i = 0; i < e.length; i++) {
                    ps.setObject(3 + i, e[i]);
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The last seq sealed so far (0 when none). */
    private static long lastSealed(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(max(last_seq), 0) FROM segments WHERE sid = " + SessionRows.SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The reads {@link Segments}' walks need, on {@code c} for {@code key}: the kit's, with this store's lean rows. */
    static Segments.Reader<SQLException> reader(Connection c, SessionKey key, Sealing sealing) {
        return new SegmentReader(c, key, "touches_transcript = 1", SqliteDialect.of(sealing), sealing) {
            @Override
            public boolean leanRows(long from, long to, List<Event> out) throws SQLException {
                int start = out.size();
                try (PreparedStatement ps = c.prepareStatement(leanRowsSql())) {
                    bind(ps, from, to);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            byte[] payload = sealing.bytes(rs, 3, Sealing.Place.event(key.tenant(), key.id(), rs.getLong(1)));
                            if (payload == null) { // sealed since the segments were listed
                                out.subList(start, out.size()).clear();
                                return false;
                            }
                            try {
                                out.add(RecordCodec.decodeEvent(key.id(), rs.getLong(1), rs.getInt(2), payload));
                            } catch (StorageException e) {
                                throw OneLine.of(e);
                            }
                        }
                    }
                }
                return true;
            }
        };
    }


    /** The session's own transcript events with {@code from <= seq <= to}, without envelopes (see {@link Segments#transcriptEvents}). */
    static List<Event> transcriptEvents(Connection c, SessionKey key, long from, long to, Sealing sealing) throws SQLException {
        return Segments.transcriptEvents(from, to, reader(c, key, sealing));
    }

    static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM segments WHERE sid = " + SessionRows.SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }

    private static void bind(PreparedStatement ps, SessionKey key, long from, long to) throws SQLException {
        ps.setString(1, key.tenant());
        ps.setString(2, key.id());
        ps.setLong(3, from);
        ps.setLong(4, to);
    }
}
