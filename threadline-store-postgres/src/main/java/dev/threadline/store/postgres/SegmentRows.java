package dev.threadline.store.postgres;

import dev.threadline.core.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.Segments;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code segments} table (migration 4, ADR 0028): the transcript of a session's older steps,
 * sealed when a snapshot is saved. A segment is one row of a JSON array holding the payloads of the
 * session's own transcript events with {@code first_seq <= seq <= last_seq}, in seq order; those
 * event rows keep their envelope and have a NULL payload. The array is stored out of line and
 * uncompressed ({@code STORAGE EXTERNAL}): sizes are what the text is, and a read copies it without
 * decompressing; {@code ALTER TABLE segments ALTER COLUMN payloads SET STORAGE EXTENDED} turns pglz
 * (or, with {@code default_toast_compression = lz4}, LZ4) compression on for segments written after it.
 *
 * <p>Under READ COMMITTED every statement sees the latest commit. Sealing is monotonic (a row once
 * sealed stays sealed, and its segment is committed in the same transaction) and segments of a session
 * never overlap: so a reader reads the rows first and the segments after, and finds in the later
 * statement the segment of every NULL payload the earlier one saw (or the session is gone). Two seals
 * of one session at once both start after the last segment they see, so both insert the same
 * {@code (sid, first_seq)}: its unique key makes the second wait for the first and then do nothing
 * ({@code ON CONFLICT DO NOTHING}), so segments never overlap, and no seal locks the session row an
 * append moves (appends never wait for a seal). Stateless.
 */
final class SegmentRows {
    private static final String SID = EventRows.SID;

    private SegmentRows() {}

    /**
     * Seals the session's unsealed own transcript events with {@code seq <= upTo} into one new segment,
     * if there are at least {@link Segments#MIN_EVENTS} of them; inside the caller's transaction. When
     * another transaction sealed from the same seq meanwhile, does nothing.
     */
    static void seal(Connection c, SessionKey key, long upTo) throws SQLException {
        long after = lastSealed(c, key);
        if (upTo <= after) {
            return;
        }
        List<String> payloads = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, v, payload FROM events WHERE sid = " + SID
                + " AND seq > ? AND seq <= ? AND touches_transcript AND payload IS NOT NULL ORDER BY seq")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, after);
            ps.setLong(4, upTo);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    payloads.add(sealable(key, rs.getLong(1), rs.getInt(2), rs.getString(3)));
                }
            }
        }
        if (payloads.size() < Segments.MIN_EVENTS) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO segments (sid, last_seq, first_seq, v, payloads)"
                + " VALUES (" + SID + ", ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, upTo);
            ps.setLong(4, after + 1);
            ps.setShort(5, (short) RecordCodec.VERSION);
            ps.setString(6, RecordCodec.encodeSegment(payloads));
            if (ps.executeUpdate() == 0) {
                return; // a seal from the same seq committed first: its segment holds these rows
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE events SET payload = NULL WHERE sid = " + SID
                + " AND seq > ? AND seq <= ? AND touches_transcript AND payload IS NOT NULL")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, after);
            ps.setLong(4, upTo);
            int sealed = ps.executeUpdate();
            if (sealed != payloads.size()) { // the rows read above: no other seal owns this range (its first_seq is ours)
                throw new StorageException("session '" + key.id() + "': sealing seq " + (after + 1) + ".." + upTo + " found "
                        + payloads.size() + " payloads but " + sealed + " rows");
            }
        }
    }

    private static String sealable(SessionKey key, long seq, int version, String payload) {
        try {
            return RecordCodec.sealable(key.id(), seq, version, payload);
        } catch (StorageException e) {
            throw new StorageException(OneLine.of(e.getMessage()), e.getCause() == null ? e : e.getCause());
        }
    }

    /** The last seq sealed so far (0 when none). */
    private static long lastSealed(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(max(last_seq), 0) FROM segments WHERE sid = " + SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The reads {@link Segments}' walks need, on {@code c} for {@code key}. */
    static Segments.Reader<SQLException> reader(Connection c, SessionKey key) {
        return new Segments.Reader<>() {
            @Override
            public List<Segments.Segment> overlapping(long from, long to) throws SQLException {
                try (PreparedStatement ps = c.prepareStatement("SELECT first_seq, last_seq, v, payloads FROM segments WHERE sid = "
                        + SID + " AND last_seq >= ? AND first_seq <= ? ORDER BY last_seq")) {
                    bind(ps, key, from, to);
                    try (ResultSet rs = ps.executeQuery()) {
                        List<Segments.Segment> out = new ArrayList<>();
                        while (rs.next()) {
                            out.add(new Segments.Segment(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getBytes(4)));
                        }
                        return out;
                    }
                }
            }

            @Override
            public List<Event> events(Segments.Segment s) {
                try {
                    return RecordCodec.decodeSegment(key.id(), s.firstSeq(), s.lastSeq(), s.version(), s.payloads());
                } catch (StorageException e) {
                    throw new StorageException(OneLine.of(e.getMessage()), e.getCause() == null ? e : e.getCause());
                }
            }

            @Override
            public List<Long> transcriptSeqs(Segments.Segment s) throws SQLException {
                try (PreparedStatement ps = c.prepareStatement("SELECT seq FROM events WHERE sid = " + SID
                        + " AND seq BETWEEN ? AND ? AND touches_transcript ORDER BY seq")) {
                    bind(ps, key, s.firstSeq(), s.lastSeq());
                    try (ResultSet rs = ps.executeQuery()) {
                        List<Long> out = new ArrayList<>();
                        while (rs.next()) {
                            out.add(rs.getLong(1));
                        }
                        return out;
                    }
                }
            }

            /**
             * The rows' payloads joined into one JSON array and parsed in one go (ADR 0031), as a segment
             * is; row by row when a row is of an older version that needs an upgrade, or when the array
             * does not parse (so that the error names the row). False when a row was sealed meanwhile.
             */
            @Override
            public boolean leanRows(long from, long to, List<Event> out) throws SQLException {
                List<long[]> seqs = new ArrayList<>();
                List<byte[]> payloads = new ArrayList<>();
                boolean asIs = true;
                int length = 2;
                try (PreparedStatement ps = c.prepareStatement("SELECT seq, v, payload FROM events WHERE sid = " + SID
                        + " AND seq BETWEEN ? AND ? AND touches_transcript ORDER BY seq")) {
                    bind(ps, key, from, to);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            byte[] payload = rs.getBytes(3);
                            if (payload == null) { // sealed since the segments were listed
                                return false;
                            }
                            int v = rs.getInt(2);
                            asIs &= v >= RecordCodec.READ_AS_IS && v <= RecordCodec.VERSION;
                            seqs.add(new long[] {rs.getLong(1), v});
                            payloads.add(payload);
                            length += payload.length + 1;
                        }
                    }
                }
                if (payloads.isEmpty()) {
                    return true;
                }
                if (asIs) {
                    byte[] array = new byte[length];
                    int at = 0;
                    array[at++] = '[';
                    for (int i = 0; i < payloads.size(); i++) {
                        if (i > 0) {
                            array[at++] = ',';
                        }
                        byte[] p = payloads.get(i);
                        System.arraycopy(p, 0, array, at, p.length);
                        at += p.length;
                    }
                    array[at++] = ']';
                    try {
                        out.addAll(RecordCodec.decodeSegment(key.id(), from, to, RecordCodec.VERSION,
                                at == array.length ? array : java.util.Arrays.copyOf(array, at)));
                        return true;
                    } catch (StorageException corrupt) {
                        // read them one by one: the error then names the row
                    }
                }
                for (int i = 0; i < payloads.size(); i++) {
                    try {
                        out.add(RecordCodec.decodeEvent(key.id(), seqs.get(i)[0], (int) seqs.get(i)[1], payloads.get(i)));
                    } catch (StorageException e) {
                        throw new StorageException(OneLine.of(e.getMessage()), e.getCause() == null ? e : e.getCause());
                    }
                }
                return true;
            }

            @Override
            public List<Event> fullRows(long from, long to) throws SQLException {
                return EventRows.select(c, key, from, to, true).stream().map(StoredEvent::event).toList();
            }

            @Override
            public void requireSession() throws SQLException {
                SessionRows.head(c, key);
            }
        };
    }

    private static void bind(PreparedStatement ps, SessionKey key, long from, long to) throws SQLException {
        ps.setString(1, key.tenant());
        ps.setString(2, key.id());
        ps.setLong(3, from);
        ps.setLong(4, to);
    }

    /** The session's own transcript events with {@code from <= seq <= to}, without envelopes (see {@link Segments#transcriptEvents}). */
    static List<Event> transcriptEvents(Connection c, SessionKey key, long from, long to) throws SQLException {
        return Segments.transcriptEvents(from, to, reader(c, key));
    }
}
