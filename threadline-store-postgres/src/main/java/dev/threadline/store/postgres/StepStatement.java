package dev.threadline.store.postgres;

import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.store.AppendRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A step's head move and event inserts as one statement: a data-modifying CTE whose UPDATE is the
 * fencing check and compare-and-set on the session row, and whose INSERT takes its rows from that
 * UPDATE's result, so the events go in if, and only if, the head moved. An ordinary step (no command
 * record, no shared writes) is then one auto-commit statement: one round trip, as a single-row INSERT
 * is. The statement text depends only on the number of events. Stateless. (Followers are told after the
 * commit, by the store's {@link HeadNotifier}: a notify inside this statement would serialise commits.)
 */
final class StepStatement {
    /** The most events one statement carries (9 parameters each, far below the protocol's 65,535). */
    static final int MAX_EVENTS = 1000;

    private StepStatement() {}

    static String sql(int events) {
        StringBuilder sql = new StringBuilder("""
                WITH moved AS (
                  UPDATE sessions SET head_seq = ?, updated_at = ?
                  WHERE tenant = ? AND id = ? AND head_seq = ? AND lease_epoch = ?
                  RETURNING sid
                ),
                inserted AS (
                  INSERT INTO events (sid, seq, step, time, command_id, command_text, source, touches_transcript, payload, v)
                  SELECT moved.sid, e.seq, e.step, e.time, e.command_id, e.command_text, e.source, e.tt, e.payload, e.v
                  FROM moved, (VALUES\s""");
        for (int i = 0; i < events; i++) {
            sql.append(i == 0 ? "" : ", ").append("(?::bigint, ?::bigint, ?::bigint, ?::uuid, ?, ?, ?::boolean, ?, ?::smallint)");
        }
        sql.append("""
                ) AS e (seq, step, time, command_id, command_text, source, tt, payload, v)
                  RETURNING 1)
                SELECT count(*) FROM moved""");
        return sql.toString();
    }

    /**
     * Runs the statement; true when the head moved (and the events are in), false when the row's head
     * or epoch did not match (then nothing was written).
     */
    static boolean run(Connection c, AppendRequest request, List<EventRows.Row> rows, long newHead, long now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql(rows.size()))) {
            int i = 1;
            ps.setLong(i++, newHead);
            ps.setLong(i++, now);
            ps.setString(i++, request.key().tenant());
            ps.setString(i++, request.key().id());
            ps.setLong(i++, request.expectedSeq());
            ps.setLong(i++, request.epoch());
            for (EventRows.Row r : rows) {
                ps.setLong(i++, r.seq());
                ps.setLong(i++, r.step());
                ps.setLong(i++, r.time());
                i = EventRows.bindCommand(ps, i, r);
                ps.setString(i++, r.source());
                ps.setBoolean(i++, r.transcript());
                ps.setString(i++, r.payload());
                ps.setShort(i++, (short) RecordCodec.VERSION);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 1;
            }
        }
    }
}
