package dev.threadline.store.postgres;

import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.store.Resealing.Resealed;
import dev.threadline.store.jdbc.Sealing;
import dev.threadline.store.jdbc.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * PostgreSQL's re-seal ({@code threadline keys rotate-data}, ADR 0049), SQLite's {@code Resealer} on migration 11's
 * split columns: for every payload column {@code c} (and its {@code c_sealed} beside it), the tenant's rows whose payload
 * is plain ({@code c} set) or sealed under another data key than the newest ({@code c_sealed} not starting with that
 * key's five-byte prefix, compared in SQL) are read in key order from a cursor, a batch at a time, each batch one
 * write transaction of its own. Each payload is sealed again for its place (a plain one sealed, a sealed one opened
 * and sealed again) and written back into {@code c_sealed} with {@code c} set NULL, only where the row still holds
 * both values that were read (a compare-and-set: a row another process changed or removed meanwhile keeps that
 * process's value). Then the tenant's rows of the full-text index ({@code journal_text}) go, which a store that seals
 * does not write and which hold the messages' words in clear. The old row versions stay in the tables' pages and the
 * write-ahead log until {@code scrub()} ({@link PgScrub}) rewrites the tables. Stateless.
 */
final class PgResealer {
    /**
     * One payload column of {@code table}: the FROM clause and the tenant's condition (with {@code tenantParams}
     * parameters, each the tenant), the key columns as selected (the cursor, in order) and as the UPDATE names them,
     * whether the UPDATE also checks {@code tenant}, and the two parts of the payload's {@link Sealing.Place}.
     */
    private record Column(String kind, String table, String payload, String from, String tenantWhere, int tenantParams,
                          List<String> keys, List<String> updateKeys, boolean tenantInUpdate, String where, String at) {
        /** The next batch after {@code cursor} (null: from the start): keys, where, at, text value, sealed value. */
        String select(boolean cursor) {
            String keyList = String.join(", ", keys);
            String p = qualified(payload);
            return "SELECT " + keyList + ", " + where + " AS place_where, " + at + " AS place_at, " + p + ", " + p + Sealing.SEALED_SUFFIX + " FROM " + from
                    + " WHERE " + tenantWhere + (cursor ? " AND (" + keyList + ") > (" + String.join(", ", java.util.Collections.nCopies(keys.size(), "?")) + ")" : "")
                    + " AND (" + p + " IS NOT NULL OR substring(" + p + Sealing.SEALED_SUFFIX + " from 1 for 5) <> ?)"
                    + " ORDER BY " + keyList + " LIMIT ?";
        }

        /** The compare-and-set: the new sealed value, the keys, (the tenant,) the text and sealed values read. */
        String update() {
            StringBuilder sql = new StringBuilder("UPDATE " + table + " SET " + payload + " = NULL, " + payload
                    + Sealing.SEALED_SUFFIX + " = ? WHERE ");
            for (String k : updateKeys) {
                sql.append(k).append(" = ? AND ");
            }
            if (tenantInUpdate) {
                sql.append("tenant = ? AND ");
            }
            return sql.append(payload).append(" IS NOT DISTINCT FROM ? AND ").append(payload).append(Sealing.SEALED_SUFFIX)
                    .append(" IS NOT DISTINCT FROM ?").toString();
        }

        private String qualified(String column) {
            String key = keys.get(0);
            return key.contains(".") ? key.substring(0, key.indexOf('.') + 1) + column : column;
        }
    }

    private static final String BY_SESSION = "sessions s JOIN %s t ON t.sid = s.sid";

    /** Every payload column migration 11 split ({@link SealedColumns#PAYLOADS}), with the place its reads use. */
    private static final List<Column> COLUMNS = List.of(
            new Column("event", "events", "payload", BY_SESSION.formatted("events"), "s.tenant = ?", 1,
                    List.of("t.sid", "t.seq"), List.of("sid", "seq"), false, "s.id", "t.seq::text"),
            new Column("segment", "segments", "payloads", BY_SESSION.formatted("segments"), "s.tenant = ?", 1,
                    List.of("t.sid", "t.last_seq"), List.of("sid", "last_seq"), false, "s.id", "t.last_seq::text"),
            new Column("base", "history_bases", "payload", BY_SESSION.formatted("history_bases"), "s.tenant = ?", 1,
                    List.of("t.sid"), List.of("sid"), false, "s.id", "''"),
            new Column("snapshot", "snapshots", "payload", "snapshots", "tenant = ?", 1,
                    List.of("session_id", "seq"), List.of("session_id", "seq"), true, "session_id", "seq::text"),
            new Column("command", "commands", "result", "commands", "tenant = ?", 1,
                    List.of("session_id", "command_id"), List.of("session_id", "command_id"), true, "session_id", "command_id"),
            // the epoch is part of the place, so the compare-and-set checks it: a newer request is not sealed for an older one
            new Column("interrupt", "interrupts", "reason", "interrupts", "tenant = ?", 1,
                    List.of("session_id", "epoch"), List.of("session_id", "epoch"), true, "session_id", "epoch::text"),
            new Column("variable", "variables", "value", "variables",
                    "(scope_key = ? OR left(scope_key, length(?) + 1) = ? || '/')", 3,
                    List.of("scope", "scope_key", "name"), List.of("scope", "scope_key", "name"), false,
                    "scope || ':' || scope_key", "name"));

    private PgResealer() {}

    /** What one batch did, and the keys of its last row (where the next one starts). */
    private record Batch(int examined, int resealed, Object[] last) {
    }

    /**
     * Re-seals every payload of {@code tenant} not under its newest data key; see
     * {@link dev.threadline.core.store.Resealing#reseal}.
     *
     * @throws InvalidInputException naming {@code batch} when it is below 1
     */
    static Resealed reseal(Transactions db, Sealing sealing, String tenant, int batch, Consumer<Resealed> progress) {
        if (batch < 1) {
            throw new InvalidInputException("batch", "a re-seal batch is 1 payload or more, not " + batch);
        }
        int number = sealing.newest(tenant);
        byte[] prefix = PayloadSealer.prefix(number);
        Resealed total = new Resealed(tenant, number, 0, 0);
        for (Column col : COLUMNS) {
            Object[] cursor = null;
            while (true) {
                Object[] after = cursor;
                Batch b = db.write(() -> "re-seal the " + col.kind() + " payloads of tenant '" + tenant + "'",
                        c -> pass(c, col, sealing, tenant, after, prefix, batch));
                total = new Resealed(tenant, number, total.examined() + b.examined(), total.resealed() + b.resealed());
                if (b.examined() > 0) {
                    progress.accept(total);
                }
                if (b.examined() < batch) {
                    break;
                }
                cursor = b.last();
            }
        }
        dropTextIndex(db, tenant, batch);
        return total;
    }

    /**
     * Deletes the tenant's rows of the full-text index, {@code batch} per transaction: a store that seals writes none
     * (its search ranks in process), and rows written before it had keys hold the messages' words in clear.
     */
    private static void dropTextIndex(Transactions db, String tenant, int batch) {
        int n;
        do {
            n = db.write(() -> "delete the full-text index rows of tenant '" + tenant + "'", c -> {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM journal_text WHERE (sid, seq) IN (SELECT t.sid, t.seq"
                        + " FROM journal_text t JOIN sessions s ON s.sid = t.sid WHERE s.tenant = ? LIMIT ?)")) {
                    ps.setString(1, tenant);
                    ps.setInt(2, batch);
                    return ps.executeUpdate();
                }
            });
        } while (n == batch);
    }

    /** A row read by a batch: its keys, its place and its stored value (text, or sealed bytes; one of the two). */
    private record Row(Object[] keys, Sealing.Place place, String text, byte[] sealed) {
    }

    private static Batch pass(Connection c, Column col, Sealing sealing, String tenant, Object[] after, byte[] prefix, int batch)
            throws SQLException {
        int n = col.keys().size();
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement select = c.prepareStatement(col.select(after != null))) {
            int i = 1;
            for (int t = 0; t < col.tenantParams(); t++) {
                select.setString(i++, tenant);
            }
            if (after != null) {
                for (Object k : after) {
                    select.setObject(i++, k);
                }
            }
            select.setBytes(i++, prefix);
            select.setInt(i, batch);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    Object[] keys = new Object[n];
                    for (int k = 0; k < n; k++) {
                        keys[k] = rs.getObject(k + 1);
                    }
                    rows.add(new Row(keys, new Sealing.Place(col.kind(), tenant, rs.getString(n + 1), rs.getString(n + 2)),
                            rs.getString(n + 3), rs.getBytes(n + 4)));
                }
            }
        }
        int resealed = 0;
        try (PreparedStatement update = c.prepareStatement(col.update())) {
            for (Row r : rows) { // written back only where the row still holds what was read
                // a text payload is sealed as it is (reads take the text column as it is, never opening it)
                update.setBytes(1, r.text() != null ? sealing.seal(r.text(), r.place()) : sealing.reseal(r.sealed(), r.place()));
                int i = 2;
                for (Object k : r.keys()) {
                    update.setObject(i++, k);
                }
                if (col.tenantInUpdate()) {
                    update.setString(i++, tenant);
                }
                if (r.text() == null) {
                    update.setNull(i++, Types.VARCHAR);
                } else {
                    update.setString(i++, r.text());
                }
                if (r.sealed() == null) {
                    update.setNull(i, Types.BINARY);
                } else {
                    update.setBytes(i, r.sealed());
                }
                resealed += update.executeUpdate();
            }
        }
        return new Batch(rows.size(), resealed, rows.isEmpty() ? after : rows.get(rows.size() - 1).keys());
    }
}
