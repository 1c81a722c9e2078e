package dev.threadline.store.postgres;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.Segments;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.OneLine;
import dev.threadline.store.jdbc.Sealing;
import dev.threadline.store.jdbc.SegmentReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code segments} table (migration 4, ADR 0028), read only since ADR 0031: versions 4 to 6 of
 * this store sealed a session's older transcript into segments when a snapshot was saved, one row of a
 * JSON array holding the payloads of the session's own transcript events with
 * {@code first_seq <= seq <= last_seq}, in seq order, those event rows keeping their envelope with a
 * NULL payload. This version seals nothing (sealing was an UPDATE whose old row versions held their
 * space until vacuum), but reads what was sealed: every read fills sealed rows from their segments, and
 * the unsealed rows of a transcript read are joined into one array and parsed in one go (client side, ADR 0031;
 * payloads sealed at rest, ADR 0049, opened first).
 *
 * <p>Under READ COMMITTED every statement sees the latest commit. A row once sealed stayed sealed, and
 * its segment was committed in the same transaction, so a reader reads the rows first and the segments
 * after. Stateless.
 */
final class SegmentRows {
    private SegmentRows() {}

    /**
     * The reads {@link Segments}' walks need, on {@code c} for {@code key}: the kit's, with this store's lean rows,
     * payloads read as {@code sealing} says.
     */
    static Segments.Reader<SQLException> reader(Connection c, SessionKey key, Sealing sealing) {
        return new SegmentReader(c, key, "touches_transcript", PostgresDialect.of(sealing), sealing) {
            @Override
            protected String leanRowsSql() {
                return super.leanRowsSql().replace("SELECT seq, v, payload FROM", "SELECT seq, v, payload, payload_sealed FROM");
            }

            @Override
            public boolean leanRows(long from, long to, List<Event> out) throws SQLException {
                List<long[]> seqs = new ArrayList<>(); // seq and version of each row
                List<byte[]> payloads = new ArrayList<>();
                boolean asIs = true;
                try (PreparedStatement ps = c.prepareStatement(leanRowsSql())) {
                    bind(ps, from, to);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            byte[] payload = rs.getBytes(3);
                            if (payload == null) {
                                byte[] atRest = rs.getBytes(4);
                                if (atRest == null) { // put in a segment since the segments were listed
                                    return false;
                                }
                                payload = sealing.open(atRest, Sealing.Place.event(key.tenant(), key.id(), rs.getLong(1)));
                            }
                            int v = rs.getInt(2);
                            asIs &= RecordCodec.readsAsIs(v);
                            seqs.add(new long[] {rs.getLong(1), v});
                            payloads.add(payload);
                        }
                    }
                }
                if (payloads.isEmpty()) {
                    return true;
                }
                if (asIs) {
                    try {
                        out.addAll(RecordCodec.decodeJoined(key.id(), from, to, payloads));
                        return true;
                    } catch (StorageException corrupt) {
                        // read them one by one: the error then names the row
                    }
                }
                for (int i = 0; i < payloads.size(); i++) {
                    try {
                        out.add(RecordCodec.decodeEvent(key.id(), seqs.get(i)[0], (int) seqs.get(i)[1], payloads.get(i)));
                    } catch (StorageException e) {
                        throw OneLine.of(e);
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
}
