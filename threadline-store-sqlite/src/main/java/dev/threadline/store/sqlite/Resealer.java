package dev.threadline.store.sqlite;

import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.store.Resealing.Resealed;
import dev.threadline.store.jdbc.Sealing;
import dev.threadline.store.jdbc.Transactions;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * SQLite's re-seal ({@code threadline keys rotate-data}, ADR 0049): every payload column of a tenant's rows, table by
 * table, in batches that are each one write of their own; a batch reads the next rows whose value is not sealed under
 * the tenant's newest data key (plain ones included: the filter is the five-byte prefix of that key, compared in SQL),
 * opens each, seals it again for its place and writes it back only where the row still holds what was read (a row
 * another process changed or emptied meanwhile keeps that process's value). Rows are walked in key order from a
 * cursor, so a pass never reads a row twice. Stateless.
 */
final class Resealer {
    /**
     * One payload column. {@code select} takes the tenant, the cursor's two keys, the newest key's prefix and a limit, and
     * returns (key 1, key 2, place's where, place's at, typeof value, value); {@code update} takes the new value, the two
     * keys, the old value and the tenant.
     */
    private record Column(String kind, String select, String update) {
    }

    private static final String NOT_NEWEST = " IS NOT NULL AND NOT (typeof(%1$s) = 'blob' AND substr(%1$s, 1, 5) = ?4)";

    private static final List<Column> COLUMNS = List.of(
            sidKeyed("event", "events", "seq", "payload"),
            sidKeyed("segment", "segments", "last_seq", "payloads"),
            new Column("base", "SELECT s.sid, 0, s.id, '', typeof(h.payload), h.payload FROM sessions s JOIN history_bases h"
                    + " ON h.sid = s.sid WHERE s.tenant = ?1 AND (s.sid, 0) > (?2, ?3) AND h.payload" + NOT_NEWEST.formatted("h.payload")
                    + " ORDER BY s.sid LIMIT ?5",
                    "UPDATE history_bases SET payload = ?1 WHERE sid = ?2 AND 0 = ?3 AND payload = ?4"),
            sessionKeyed("snapshot", "snapshots", "seq", "payload"),
            sessionKeyed("command", "commands", "command_id", "result"),
            sessionKeyed("interrupt", "interrupts", "epoch", "reason"),
            new Column("variable", "SELECT rowid, 0, scope || ':' || scope_key, name, typeof(value), value FROM variables"
                    + " WHERE (scope_key = ?1 OR substr(scope_key, 1, length(?1) + 1) = ?1 || '/') AND (rowid, 0) > (?2, ?3)"
                    + " AND value" + NOT_NEWEST.formatted("value") + " ORDER BY rowid LIMIT ?5",
                    "UPDATE variables SET value = ?1 WHERE rowid = ?2 AND 0 = ?3 AND value = ?4"));

    private Resealer() {}

    private static Column sidKeyed(String kind, String table, String key, String column) {
        return new Column(kind, "SELECT s.sid, t." + key + ", s.id, t." + key + ", typeof(t." + column + "), t." + column
                + " FROM sessions s JOIN " + table + " t ON t.sid = s.sid WHERE s.tenant = ?1 AND (s.sid, t." + key + ") > (?2, ?3)"
                + " AND t." + column + NOT_NEWEST.formatted("t." + column) + " ORDER BY s.sid, t." + key + " LIMIT ?5",
                "UPDATE " + table + " SET " + column + " = ?1 WHERE sid = ?2 AND " + key + " = ?3 AND " + column + " = ?4");
    }

    private static Column sessionKeyed(String kind, String table, String key, String column) {
        return new Column(kind, "SELECT session_id, " + key + ", session_id, " + key + ", typeof(" + column + "), " + column
                + " FROM " + table + " WHERE tenant = ?1 AND (session_id, " + key + ") > (?2, ?3) AND " + column
                + NOT_NEWEST.formatted(column) + " ORDER BY session_id, " + key + " LIMIT ?5",
                "UPDATE " + table + " SET " + column + " = ?1 WHERE session_id = ?2 AND " + key + " = ?3 AND " + column + " = ?4"
                        + " AND tenant = ?5");
    }

    /** What one batch did, and where the next one starts. */
    private record Batch(int examined, int resealed, Object key1, Object key2) {
    }

    /** Re-seals every payload of {@code tenant} not under its newest data key; see {@link dev.threadline.core.store.Resealing#reseal}. */
    static Resealed reseal(Transactions db, Sealing sealing, String tenant, int batch, Consumer<Resealed> progress) {
        if (batch < 1) {
            throw new InvalidInputException("batch", "a re-seal batch is 1 payload or more, not " + batch);
        }
        int number = sealing.newest(tenant);
        byte[] prefix = PayloadSealer.prefix(number);
        Resealed total = new Resealed(tenant, number, 0, 0);
        for (Column col : COLUMNS) {
            Object key1 = col.kind().equals("snapshot") || col.kind().equals("command") || col.kind().equals("interrupt") ? "" : -1L;
            Object key2 = col.kind().equals("command") ? "" : Long.MIN_VALUE;
            while (true) {
                Object k1 = key1;
                Object k2 = key2;
                Batch b = db.write(() -> "re-seal the " + col.kind() + " payloads of tenant '" + tenant + "'",
                        c -> pass(c, col, sealing, tenant, k1, k2, prefix, batch));
                total = new Resealed(tenant, number, total.examined() + b.examined(), total.resealed() + b.resealed());
                if (b.examined() > 0) {
                    progress.accept(total);
                }
                if (b.examined() < batch) {
                    break;
                }
                key1 = b.key1();
                key2 = b.key2();
            }
        }
        dropTextIndex(db, tenant, batch);
        return total;
    }

    /**
     * Deletes the tenant's rows of the full-text index, which a store that seals no longer writes (its search ranks in
     * process): rows written before the store had keys hold the messages' words in clear. Then merges the index
     * ({@code optimize}), so the deleted rows' words leave its segments too, not only its content table.
     */
    private static void dropTextIndex(Transactions db, String tenant, int batch) {
        long dropped = 0;
        int n;
        do {
            n = db.write(() -> "delete the full-text index rows of tenant '" + tenant + "'", c -> {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM journal_text WHERE id IN (SELECT t.id FROM journal_text t"
                        + " JOIN sessions s ON s.sid = t.sid WHERE s.tenant = ? LIMIT ?)")) {
                    ps.setString(1, tenant);
                    ps.setInt(2, batch);
                    return ps.executeUpdate();
                }
            });
            dropped += n;
        } while (n == batch);
        if (dropped > 0) {
            db.write(() -> "merge the full-text index", c -> {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO journal_fts (journal_fts) VALUES ('optimize')")) {
                    return ps.executeUpdate();
                }
            });
        }
    }

    /** A row read by a batch: its keys, its place and its stored value (and whether SQLite holds it as a BLOB). */
    private record Row(Object key1, Object key2, Sealing.Place place, boolean blob, byte[] stored) {
    }

    private static Batch pass(Connection c, Column col, Sealing sealing, String tenant, Object key1, Object key2, byte[] prefix,
                              int batch) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement select = c.prepareStatement(col.select())) {
            select.setString(1, tenant);
            select.setObject(2, key1);
            select.setObject(3, key2);
            select.setBytes(4, prefix);
            select.setInt(5, batch);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getObject(1), rs.getObject(2), new Sealing.Place(col.kind(), tenant, rs.getString(3),
                            rs.getString(4)), "blob".equals(rs.getString(5)), rs.getBytes(6)));
                }
            }
        }
        int resealed = 0;
        try (PreparedStatement update = c.prepareStatement(col.update())) {
            for (Row r : rows) { // written back only where the row still holds what was read
                update.setBytes(1, sealing.reseal(r.stored(), r.place()));
                update.setObject(2, r.key1());
                update.setObject(3, r.key2());
                if (r.blob()) {
                    update.setBytes(4, r.stored());
                } else {
                    update.setString(4, new String(r.stored(), StandardCharsets.UTF_8));
                }
                if (col.update().contains("?5")) {
                    update.setString(5, tenant);
                }
                resealed += update.executeUpdate();
            }
        }
        Row last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
        return new Batch(rows.size(), resealed, last == null ? key1 : last.key1(), last == null ? key2 : last.key2());
    }
}
