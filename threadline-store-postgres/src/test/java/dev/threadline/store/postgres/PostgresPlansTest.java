package dev.threadline.store.postgres;

import dev.threadline.harness.servers.PgServer;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The plans of the listing and of a journal range read on a filled database (3 tenants of 3,000
 * sessions of 5 users each, updated a second apart, one session of 20,000 events, analyzed): every
 * statement the store runs for them reads through an index, and none sorts the tenant's or the user's
 * sessions, only those of one 10-second recency period at a time (an incremental sort; a selective
 * metadata filter finds its few rows through the GIN index and sorts only those). The plans are written to
 * {@code target/explain-plans.txt} for the docs.
 */
class PostgresPlansTest {
    private static String schema;

    @BeforeAll
    static void fill() throws SQLException {
        schema = PgStores.freshSchema("plans");
        PostgresStateStore.open(PgStores.url(), PostgresStateStore.Options.defaults().withSchema(schema)).close();
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            s.execute("""
                    INSERT INTO sessions (tenant, id, user_id, parent_id, parent_seq, info, v, created_at, metadata)
                    SELECT 't' || (g % 3), 's' || g, 'u' || (g % 5), NULL, 0, '{}', 2, g,
                           CASE WHEN g % 100 = 0 THEN '{"project":"rare"}'::jsonb ELSE '{"project":"common"}'::jsonb END
                    FROM generate_series(1, 9000) g""");
            s.execute("""
                    INSERT INTO heads (sid, head_seq, lease_epoch, updated_at, recent, tenant, id, user_id)
                    SELECT sid, 1, 0, substr(id, 2)::bigint * 1000000000, substr(id, 2)::bigint / 10, tenant, id, user_id
                    FROM sessions""");
            s.execute("""
                    INSERT INTO events (sid, seq, step, time, command_text, source, touches_transcript, payload, v)
                    SELECT (SELECT sid FROM sessions WHERE tenant = 't1' AND id = 's1'), g, g, g, 'c', 'input', true, '{}', 2
                    FROM generate_series(1, 20000) g""");
            s.execute("UPDATE heads SET head_seq = 20000 WHERE tenant = 't1' AND id = 's1'");
            s.execute("ANALYZE");
        }
    }

    /** The statement with its parameters inlined, in order. */
    private static String inline(String sql, Object... params) {
        StringBuilder out = new StringBuilder();
        int p = 0;
        for (char ch : sql.toCharArray()) {
            if (ch == '?') {
                Object v = params[p++];
                out.append(v instanceof String s ? "'" + s.replace("'", "''") + "'" : String.valueOf(v));
            } else {
                out.append(ch);
            }
        }
        assertThat(p).isEqualTo(params.length);
        return out.toString();
    }

    private static String explain(String sql) throws SQLException {
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            List<String> lines = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, SUMMARY OFF) " + sql)) {
                while (rs.next()) {
                    lines.add(rs.getString(1));
                }
            }
            return String.join("\n", lines);
        }
    }

    /**
     * Regression: version 4 turned the metadata GIN index's pending list off, and every append's
     * (non-HOT) session update then wrote into a posting tree whose WAL grows with it: the WAL per step
     * nearly doubled from 10 to 10,000 messages. The store's indexes must leave it on.
     */
    @Test
    void theMetadataIndexKeepsItsPendingListSoTheWalPerStepStaysFlat() throws SQLException {
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT i.relname, coalesce(array_to_string(i.reloptions, ','), '')"
                     + " FROM pg_class i JOIN pg_index x ON x.indexrelid = i.oid JOIN pg_class t ON t.oid = x.indrelid"
                     + " JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = '" + schema + "'")) {
            int indexes = 0;
            while (rs.next()) {
                indexes++;
                assertThat(rs.getString(2)).as("options of index %s", rs.getString(1)).doesNotContain("fastupdate=off");
            }
            assertThat(indexes).as("the schema's indexes were read").isGreaterThan(5);
        }
    }

    @Test
    void listingAndRangeReadsGoThroughIndexes() throws SQLException, IOException {
        Map<String, String> statements = new LinkedHashMap<>();
        statements.put("list, first page of a tenant (limit 50)",
                inline(SessionPages.sql(false, false, false), "t1", 51));
        statements.put("list, a later page (cursor)",
                inline(SessionPages.sql(false, true, false), "t1", Migrations.recent(4_500_000_000_000L),
                        4_500_000_000_000L, 4_500_000_000_000L, "s4500", 51));
        statements.put("list, one user's sessions",
                inline(SessionPages.sql(true, false, false), "t1", "u2", 51));
        statements.put("list, metadata filter (selective)",
                inline(SessionPages.sql(false, false, true), "t1", "{\"project\":\"rare\"}", 51));
        statements.put("readOwn, 100 events in the middle of 20,000",
                "SELECT seq, step, time, command_id, command_text, source, touches_transcript, payload, v FROM events"
                        + " WHERE sid = (SELECT sid FROM sessions WHERE tenant = 't1' AND id = 's1')"
                        + " AND seq BETWEEN 10000 AND 10099 ORDER BY seq");

        StringBuilder report = new StringBuilder();
        Map<String, String> plans = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : statements.entrySet()) {
            String plan = explain(e.getValue());
            plans.put(e.getKey(), plan);
            report.append("-- ").append(e.getKey()).append('\n').append(e.getValue()).append(";\n").append(plan).append("\n\n");
        }
        Path out = Path.of("target", "explain-plans.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);

        plans.forEach((name, plan) -> {
            assertThat(plan).as(name).containsAnyOf("Index Scan", "Index Only Scan", "Bitmap Index Scan")
                    .doesNotContain("Seq Scan");
        });
        // the index gives the recency periods in order; only each period's few rows are sorted
        for (String listing : List.of("list, first page of a tenant (limit 50)", "list, a later page (cursor)",
                "list, one user's sessions")) {
            assertThat(plans.get(listing)).as(listing)
                    .contains(listing.contains("user") ? "heads_user_recent" : "heads_recent")
                    .contains("Incremental Sort").contains("Presorted Key: h.recent")
                    .doesNotContainPattern("->\\s+Sort ");
        }
        assertThat(plans.get("readOwn, 100 events in the middle of 20,000")).contains("events_pkey");
    }
}
