package dev.threadline.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.json.Json;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The two small tables beside the journal: {@code snapshots} (a cache of folded state per tenant,
 * session and seq) and {@code variables} (user- and app-scoped variables shared across sessions,
 * per scope, scope key and name), the same on SQLite and PostgreSQL. Stateless.
 */
public final class SharedRows {
    private SharedRows() {}

    /**
     * Saves a snapshot of an existing session; false when there is no such session. The payload is bound as
     * {@code sealing} says.
     *
     * @throws SQLException when the database fails the statement
     */
    public static boolean saveSnapshot(Connection c, SessionKey key, long seq, String payload, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO snapshots (tenant, session_id, seq, "
                + sealing.columns("payload") + ", v)"
                + " SELECT tenant, id, ?, " + sealing.params() + ", ? FROM sessions WHERE tenant = ? AND id = ?"
                + " ON CONFLICT (tenant, session_id, seq) DO UPDATE SET " + sealing.excluded("payload") + ", v = excluded.v")) {
            ps.setLong(1, seq);
            int i = sealing.bind(ps, 2, payload, snapshotPlace(key, seq));
            ps.setInt(i++, RecordCodec.VERSION);
            ps.setString(i++, key.tenant());
            ps.setString(i, key.id());
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * The newest readable snapshot at or before {@code maxSeq}; an old-version or corrupt one is skipped (it is only
     * a cache). The payloads are read as {@code sealing} says (a sealed one
     * that does not open is an error, not a skipped cache entry).
     *
     * @throws SQLException when the database fails the statement
     */
    public static Optional<StateSnapshot> latestSnapshot(Connection c, SessionKey key, long maxSeq, Sealing sealing)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT v, seq, " + sealing.columns("payload")
                + " FROM snapshots WHERE tenant = ? AND session_id = ? AND seq <= ? ORDER BY seq DESC")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, maxSeq);
            ps.setFetchSize(4);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StateSnapshot s = RecordCodec.decodeSnapshot(key.id(), rs.getInt(1),
                            sealing.text(rs, 3, snapshotPlace(key, rs.getLong(2))));
                    if (s != null) {
                        return Optional.of(s);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Deletes every snapshot of the session.
     *
     * @throws SQLException when the database fails the statement
     */
    public static void deleteSnapshots(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM snapshots WHERE tenant = ? AND session_id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }

    /** A shared-variable change with its values already encoded (before a connection is taken). */
    public record VariableChange(String scope, String key, Map<String, String> set, List<String> removed) {
        /** The change {@code w} with its values encoded. */
        public static VariableChange of(ScopedWrite w) {
            Map<String, String> set = new LinkedHashMap<>();
            w.set().forEach((name, value) -> set.put(name, Json.write(value)));
            return new VariableChange(w.scope().wireName(), w.key(), set, w.removed());
        }
    }

    /** The writes encoded (an empty list for none). */
    public static List<VariableChange> encode(List<ScopedWrite> writes) {
        if (writes == null || writes.isEmpty()) {
            return List.of(); // an ordinary step's (a stream over nothing cost about 2 µs of its CPU)
        }
        return writes.stream().map(VariableChange::of).toList();
    }

    /**
     * Applies the changes in order; within one, removals first, then puts. The values are bound as {@code sealing}
     * says (under the tenant of each scope key,
     * {@link #tenantOf}).
     *
     * @throws SQLException when the database fails the statement
     */
    public static void apply(Connection c, List<VariableChange> changes, Sealing sealing) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        try (PreparedStatement del = c.prepareStatement("DELETE FROM variables WHERE scope = ? AND scope_key = ? AND name = ?");
             PreparedStatement put = c.prepareStatement("INSERT INTO variables (scope, scope_key, name, " + sealing.columns("value")
                     + ", v) VALUES (?, ?, ?, " + sealing.params() + ", ?) ON CONFLICT (scope, scope_key, name) DO UPDATE SET "
                     + sealing.excluded("value") + ", v = excluded.v")) {
            for (VariableChange w : changes) {
                for (String name : w.removed()) {
                    del.setString(1, w.scope());
                    del.setString(2, w.key());
                    del.setString(3, name);
                    del.executeUpdate();
                }
                for (Map.Entry<String, String> e : w.set().entrySet()) {
                    put.setString(1, w.scope());
                    put.setString(2, w.key());
                    put.setString(3, e.getKey());
                    int i = sealing.bind(put, 4, e.getValue(), variablePlace(w.scope(), w.key(), e.getKey()));
                    put.setInt(i, RecordCodec.VERSION);
                    put.executeUpdate();
                }
            }
        }
    }

    /**
     * The variables of one scope and key, by name; a corrupt value is a one-line {@link StorageException}. The
     * values are read as {@code sealing} says.
     *
     * @throws SQLException when the database fails the statement
     */
    public static Map<String, JsonNode> variables(Connection c, String scope, String key, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT name, " + sealing.columns("value")
                + " FROM variables WHERE scope = ? AND scope_key = ?")) {
            ps.setString(1, scope);
            ps.setString(2, key);
            Map<String, JsonNode> out = new LinkedHashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    out.put(name, value(scope, key, name, sealing.text(rs, 2, variablePlace(scope, key, name))));
                }
            }
            return Map.copyOf(out);
        }
    }

    /**
     * The tenant a shared variable's scope key belongs to: the key of an app scope is the tenant, a user scope's is
     * {@code tenant/user} ({@link ScopedWrite#userKey}; a tenant id holds no {@code /}).
     */
    public static String tenantOf(String scopeKey) {
        int slash = scopeKey.indexOf('/');
        return slash < 0 ? scopeKey : scopeKey.substring(0, slash);
    }

    private static Sealing.Place snapshotPlace(SessionKey key, long seq) {
        return new Sealing.Place("snapshot", key.tenant(), key.id(), Long.toString(seq));
    }

    private static Sealing.Place variablePlace(String scope, String scopeKey, String name) {
        return new Sealing.Place("variable", tenantOf(scopeKey), scope + ":" + scopeKey, name);
    }

    private static JsonNode value(String scope, String key, String name, String json) {
        try {
            JsonNode node = Json.mapper().readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new IllegalArgumentException("empty value");
            }
            return node;
        } catch (Exception e) {
            throw new StorageException("variable '" + name + "' of " + scope + " '" + key + "': corrupt value ("
                    + OneLine.of(e.getMessage()) + ")", e);
        }
    }

    /**
     * Deletes the session's snapshots at or before {@code seq} (a prune, ADR 0045).
     *
     * @throws SQLException when the database fails the statement
     */
    public static void deleteSnapshotsThrough(Connection c, SessionKey key, long seq) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM snapshots WHERE tenant = ? AND session_id = ? AND seq <= ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, seq);
            ps.executeUpdate();
        }
    }
}
