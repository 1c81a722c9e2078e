package dev.threadline.store.postgres;

import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.store.jdbc.TextRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * A step's head move and event inserts as one statement: an INSERT of the events whose rows come from
 * a data-modifying CTE, the UPDATE that is the fencing check and compare-and-set on the session's
 * {@code heads} row. The events go in if, and only if, the head moved, and the statement's update count
 * says which (all of them, or none); they take {@code sid} from the row the UPDATE holds locked to the
 * commit, which is why the journal needs no foreign key (migration 6). The UPDATE rewrites a narrow row
 * and changes no indexed column unless the step moves the session into a later recency period, so it
 * is HOT (ADR 0030). An ordinary step (no
 * command record, no shared writes) is then one auto-commit statement: one round trip, as a single-row
 * INSERT is; steps that group-commit are pipelined, their statements sent together
 * ({@link StepBatcher}). The statement text depends only on the number of events and messages, and on whether
 * the payloads are sealed at rest (ADR 0049: then they go to {@code payload_sealed}, and no message is indexed).
 * Stateless.
 * (Followers are told after the commit, by the store's {@link HeadNotifier}: a notify inside this
 * statement would serialise commits.)
 */
final class StepStatement {
    /** The most events one statement carries (9 parameters each, far below the protocol's 65,535). */
    static final int MAX_EVENTS = 1000;

    /** The texts of steps of up to this many events are built once (a step's usual size is one to a few). */
    private static final int CACHED = 16;
    private static final String[][] TEXTS = new String[CACHED + 1][CACHED + 1];
    /** The texts of sealed steps (which index no message) of up to {@link #CACHED} events. */
    private static final String[] SEALED = new String[CACHED + 1];

    static {
        for (int n = 1; n <= CACHED; n++) {
            for (int m = 0; m <= n; m++) {
                TEXTS[n][m] = build(n, m, false);
            }
            SEALED[n] = build(n, 0, true);
        }
    }

    private StepStatement() {}

    /**
     * The statement's text for {@code events} events: the same String instance each time for the usual
     * sizes, so neither it nor the driver's statement-cache key (its hash) is computed again at every step.
     */
    static String sql(int events, int texts) {
        return events >= 1 && events <= CACHED && texts <= events ? TEXTS[events][texts] : build(events, texts, false);
    }

    /** The text of a step of {@code events} events whose payloads are sealed at rest (no message indexed). */
    static String sealedSql(int events) {
        return events >= 1 && events <= CACHED ? SEALED[events] : build(events, 0, true);
    }

    private static String build(int events, int texts, boolean sealed) {
        StringBuilder sql = new StringBuilder("""
                WITH moved AS (
                  UPDATE heads SET head_seq = ?, updated_at = ?, recent = ?
                  WHERE tenant = ? AND id = ? AND head_seq = ? AND lease_epoch = ?
                  RETURNING sid
                )""");
        if (texts > 0) {
            // the step's messages into the full-text index, in the same statement: only when the head moved (issue 38)
            sql.append(", texts AS (INSERT INTO journal_text (sid, seq, role, time, text, tsv)"
                    + " SELECT moved.sid, d.seq, d.role, d.time, d.text, to_tsvector('simple', d.words) FROM moved, (VALUES ");
            for (int i = 0; i < texts; i++) {
                sql.append(i == 0 ? "" : ", ").append("(?::bigint, ?, ?::bigint, ?, ?)");
            }
            sql.append(") AS d (seq, role, time, text, words))");
        }
        String insert = """

                INSERT INTO events (sid, seq, step, time, command_id, command_text, source, touches_transcript, payload, v)
                SELECT moved.sid, e.seq, e.step, e.time, e.command_id, e.command_text, e.source, e.tt, e.payload, e.v
                FROM moved, (VALUES\s""";
        sql.append(sealed ? insert.replace("touches_transcript, payload, v", "touches_transcript, payload_sealed, v") : insert);
        String values = sealed ? "(?::bigint, ?::bigint, ?::bigint, ?::uuid, ?, ?, ?::boolean, ?::bytea, ?::smallint)"
                : "(?::bigint, ?::bigint, ?::bigint, ?::uuid, ?, ?, ?::boolean, ?, ?::smallint)";
        for (int i = 0; i < events; i++) {
            sql.append(i == 0 ? "" : ", ").append(values);
        }
        return sql.append(") AS e (seq, step, time, command_id, command_text, source, tt, payload, v)").toString();
    }

    /**
     * One step's statement, bound: what {@link StepBatcher} pipelines with others of the same text, and
     * what a step alone runs. The statement's update count is the number of events inserted: all of
     * them when the head moved, none when the row's head or epoch did not match.
     */
    static StepBatcher.Step step(AppendRequest request, List<EventRows.Row> rows, long newHead, long now) {
        return step(request, rows, EventRows.sealed(rows) ? List.of() : TextRows.docs(request.events()), newHead, now);
    }

    /**
     * {@link #step(AppendRequest, List, long, long)} with the step's messages already read (none when the rows are
     * sealed: a sealing store indexes no plaintext).
     */
    static StepBatcher.Step step(AppendRequest request, List<EventRows.Row> rows, List<TextRows.Doc> texts, long newHead, long now) {
        boolean sealed = EventRows.sealed(rows);
        if (sealed && !texts.isEmpty()) {
            throw new IllegalArgumentException("a sealed step indexes no message");
        }
        String sql = sealed ? sealedSql(rows.size()) : sql(rows.size(), texts.size());
        return new StepBatcher.Step() {
            @Override
            public String sql() {
                return sql;
            }

            @Override
            public int expected() {
                return rows.size();
            }

            @Override
            public void bind(PreparedStatement ps) throws SQLException {
                int i = 1;
                ps.setLong(i++, newHead);
                ps.setLong(i++, now);
                ps.setLong(i++, Migrations.recent(now));
                ps.setString(i++, request.key().tenant());
                ps.setString(i++, request.key().id());
                ps.setLong(i++, request.expectedSeq());
                ps.setLong(i++, request.epoch());
                for (TextRows.Doc d : texts) {
                    i = TextRows.bind(ps, i, d);
                }
                for (EventRows.Row r : rows) {
                    ps.setLong(i++, r.seq());
                    ps.setLong(i++, r.step());
                    ps.setLong(i++, r.time());
                    i = EventRows.bindCommand(ps, i, r);
                    ps.setString(i++, r.source());
                    ps.setBoolean(i++, r.transcript());
                    if (sealed) {
                        ps.setBytes(i++, r.sealed());
                    } else {
                        ps.setString(i++, r.payload());
                    }
                    ps.setShort(i++, (short) RecordCodec.VERSION);
                }
            }
        };
    }

    /**
     * Runs the statement; true when the head moved (and the events are in), false when the row's head
     * or epoch did not match (then nothing was written).
     */
    static boolean run(Connection c, AppendRequest request, List<EventRows.Row> rows, long newHead, long now) throws SQLException {
        return step(request, rows, newHead, now).run(c);
    }

    /** {@link #run(Connection, AppendRequest, List, long, long)} with the step's messages already read. */
    static boolean run(Connection c, AppendRequest request, List<EventRows.Row> rows, List<TextRows.Doc> texts, long newHead,
                       long now) throws SQLException {
        return step(request, rows, texts, newHead, now).run(c);
    }

    /**
     * The fencing check and the head move alone, one conditional UPDATE of the session's row, for a
     * step too large for {@link StepStatement} (followers are told after the commit, as for any step).
     */
    static boolean moveHead(Connection c, AppendRequest request, long newHead, long now) throws SQLException {
        String sql = "UPDATE heads SET head_seq = ?, updated_at = ?, recent = ?"
                + " WHERE tenant = ? AND id = ? AND head_seq = ? AND lease_epoch = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, newHead);
            ps.setLong(2, now);
            ps.setLong(3, Migrations.recent(now));
            ps.setString(4, request.key().tenant());
            ps.setString(5, request.key().id());
            ps.setLong(6, request.expectedSeq());
            ps.setLong(7, request.epoch());
            return ps.executeUpdate() == 1;
        }
    }
}
