package dev.threadline.store.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Plain JDBC on a store's file, bypassing the store: to corrupt rows and to measure from the database itself. */
final class RawDb implements AutoCloseable {
    private final Connection c;

    RawDb(Path file) throws SQLException {
        c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        exec("PRAGMA busy_timeout = 10000");
    }

    /** Runs a statement with positional parameters; returns the update count. */
    int exec(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.execute() ? 0 : ps.getUpdateCount();
        }
    }

    /** The first column of the first row as a long (0 when there is no row or it is null). */
    long queryLong(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** The first column of the first row as text (null when there is no row). */
    String queryString(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Override
    public void close() throws SQLException {
        c.close();
    }
}
