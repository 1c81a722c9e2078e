package dev.threadline.store.jdbc;

import dev.threadline.core.store.WrappedDataKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code data_keys} table both JDBC stores keep (ADR 0049): a tenant's wrapped data keys, keyed by
 * (tenant, number); the wrapped bytes in a binary column (SQLite {@code BLOB}, PostgreSQL {@code bytea}).
 * An add that finds its number taken changes nothing: the primary key decides a race between processes.
 * Stateless.
 */
final class DataKeyRows {
    private DataKeyRows() {}

    static List<WrappedDataKey> find(Connection c, String tenant) throws SQLException {
        List<WrappedDataKey> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT number, kek_id, wrapped FROM data_keys WHERE tenant = ? ORDER BY number")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new WrappedDataKey(tenant, rs.getInt(1), rs.getString(2), rs.getBytes(3)));
                }
            }
        }
        return out;
    }

    static boolean add(Connection c, WrappedDataKey key, long createdMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO data_keys (tenant, number, kek_id, wrapped, created_ms)"
                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant, number) DO NOTHING")) {
            ps.setString(1, key.tenant());
            ps.setInt(2, key.number());
            ps.setString(3, key.kekId());
            ps.setBytes(4, key.wrapped());
            ps.setLong(5, createdMillis);
            return ps.executeUpdate() == 1;
        }
    }

    /** Replaces the wrapping of {@code current} with {@code rewrapped}'s when the row still holds {@code current}'s. */
    static boolean rewrap(Connection c, WrappedDataKey current, WrappedDataKey rewrapped) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE data_keys SET kek_id = ?, wrapped = ?"
                + " WHERE tenant = ? AND number = ? AND kek_id = ? AND wrapped = ?")) {
            ps.setString(1, rewrapped.kekId());
            ps.setBytes(2, rewrapped.wrapped());
            ps.setString(3, current.tenant());
            ps.setInt(4, current.number());
            ps.setString(5, current.kekId());
            ps.setBytes(6, current.wrapped());
            return ps.executeUpdate() == 1;
        }
    }
}
