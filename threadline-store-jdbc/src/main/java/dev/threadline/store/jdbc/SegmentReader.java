package dev.threadline.store.jdbc;

import dev.threadline.core.error.StorageException;
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
import java.util.Objects;

/**
 * The reads {@link Segments}' walks need from a {@code segments} table (ADR 0028) and the journal beside
 * it, the same on SQLite and PostgreSQL but for how a transcript row is tested ({@code touches_transcript}
 * is an integer on one, a boolean on the other) and how a range of unsealed rows is read
 * ({@link #leanRows}, each store's own). One reader serves one walk: one connection, one session, one
 * thread (not thread-safe, as the connection is not).
 */
public abstract class SegmentReader implements Segments.Reader<SQLException> {
    /** The sub-select both stores use for a session's surrogate key; binds tenant, then id. */
    public static final String SID = "(SELECT sid FROM sessions WHERE tenant = ? AND id = ?)";

    /** The connection of the walk, inside the caller's transaction. */
    protected final Connection c;
    /** The session read. */
    protected final SessionKey key;
    /** The SQL test of a transcript row, e.g. {@code touches_transcript = 1}. */
    protected final String transcriptRow;
    private final Dialect dialect;
    private final Sealing sealing;

    /**
     * A reader of {@code key}'s segments and rows on {@code c}, their payloads read as {@code sealing} says.
     *
     * @param transcriptRow the SQL condition that is true of the session's transcript rows
     * @param dialect       the store's dialect, for whole rows and the session's existence
     * @param sealing       how the segments' payloads are stored
     */
    protected SegmentReader(Connection c, SessionKey key, String transcriptRow, Dialect dialect, Sealing sealing) {
        this.sealing = Objects.requireNonNull(sealing, "sealing");
        this.c = Objects.requireNonNull(c, "c");
        this.key = Objects.requireNonNull(key, "key");
        this.transcriptRow = Objects.requireNonNull(transcriptRow, "transcriptRow");
        this.dialect = Objects.requireNonNull(dialect, "dialect");
    }

    @Override
    public List<Segments.Segment> overlapping(long from, long to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT first_seq, last_seq, v, " + sealing.columns("payloads")
                + " FROM segments WHERE sid = " + SID + " AND last_seq >= ? AND first_seq <= ? ORDER BY last_seq")) {
            bind(ps, from, to);
            try (ResultSet rs = ps.executeQuery()) {
                List<Segments.Segment> out = new ArrayList<>();
                while (rs.next()) {
                    long last = rs.getLong(2);
                    out.add(new Segments.Segment(rs.getLong(1), last, rs.getInt(3),
                            sealing.bytes(rs, 4, Sealing.Place.segment(key.tenant(), key.id(), last))));
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
            throw OneLine.of(e); // the parser's detail runs onto more lines
        }
    }

    @Override
    public List<Long> transcriptSeqs(Segments.Segment s) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT seq FROM events WHERE sid = " + SID
                + " AND seq BETWEEN ? AND ? AND " + transcriptRow + " ORDER BY seq")) {
            bind(ps, s.firstSeq(), s.lastSeq());
            try (ResultSet rs = ps.executeQuery()) {
                List<Long> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
                return out;
            }
        }
    }

    @Override
    public List<Event> fullRows(long from, long to) throws SQLException {
        return dialect.events(c, key, from, to, true).stream().map(StoredEvent::event).toList();
    }

    @Override
    public void requireSession() throws SQLException {
        dialect.head(c, key);
    }

    /**
     * The rows' payloads of {@code key}'s transcript statement with {@code from <= seq <= to}: the SQL
     * {@code SELECT seq, v, payload FROM events WHERE sid = SID AND seq BETWEEN ? AND ? AND <transcript row>
     * ORDER BY seq}, bound by {@link #bind}.
     */
    protected String leanRowsSql() {
        return "SELECT seq, v, payload FROM events WHERE sid = " + SID + " AND seq BETWEEN ? AND ? AND " + transcriptRow
                + " ORDER BY seq";
    }

    /**
     * Binds the session's tenant and id ({@link #SID}), then {@code from} and {@code to}, as parameters 1 to 4.
     *
     * @throws SQLException when the driver refuses a value
     */
    protected final void bind(PreparedStatement ps, long from, long to) throws SQLException {
        ps.setString(1, key.tenant());
        ps.setString(2, key.id());
        ps.setLong(3, from);
        ps.setLong(4, to);
    }
}
