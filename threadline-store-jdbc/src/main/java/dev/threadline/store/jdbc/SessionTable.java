package dev.threadline.store.jdbc;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.internal.store.ListingCursor;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionSummary;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the {@code sessions} table is the same for on both databases: a session's stored info (its
 * {@link RecordCodec} JSON in the {@code info} column), its branches (rows whose {@code parent_id} is
 * it), the expired sessions (by the {@code expires_at} column, epoch nanoseconds or NULL for never,
 * read through an index on {@code (expires_at, tenant, id)}), and one page of a listing read off a query's rows. Where the head and the lease live, and how a
 * listing is queried, each store decides. Stateless.
 */
public final class SessionTable {
    private SessionTable() {}

    /** Where a session's journal is and who may write it: its head seq and its lease epoch. */
    public record Position(long head, long epoch) {}

    /**
     * The session's info, or null when there is no such session (in this tenant).
     *
     * @throws SQLException when the database fails the statement
     */
    public static SessionInfo info(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT info FROM sessions WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? decode(key.id(), rs.getString(1)) : null;
            }
        }
    }

    /** A session row's JSON; a corrupt one is a one-line {@link StorageException} naming the session. */
    public static SessionInfo decode(String id, String json) {
        try {
            return RecordCodec.decodeSession(id, json);
        } catch (StorageException e) {
            throw OneLine.of(e);
        }
    }

    /**
     * The branches query. No {@code ORDER BY id}: with it, SQLite walked the tenant's {@code (tenant, id)}
     * index to skip a sort, reading every session of the tenant (3.6 ms a call at 10,000 sessions, which
     * made a retention sweep 16 ms a session); without it the {@code (tenant, parent_id)} index finds the
     * few branches, sorted in Java. {@code SqliteQueryPlansTest} holds the plan to that index.
     */
    public static final String BRANCHES = "SELECT id FROM sessions WHERE tenant = ? AND parent_id = ?";

    /**
     * The ids of the sessions forked from {@code key}, in id order.
     *
     * @throws SQLException when the database fails the statement
     */
    public static List<String> branches(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(BRANCHES)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            out.sort(null);
            return out;
        }
    }

    /**
     * Up to {@code limit} sessions whose {@code expires_at} is at or before {@code now}, oldest expiry
     * first, ties by tenant and id: one range read of the expiry index.
     *
     * @throws SQLException when the database fails the statement
     */
    public static List<SessionKey> expired(Connection c, Instant now, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT tenant, id FROM sessions WHERE expires_at <= ?"
                + " ORDER BY expires_at, tenant, id LIMIT ?")) {
            ps.setLong(1, EpochNanos.of(now));
            ps.setInt(2, limit);
            List<SessionKey> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new SessionKey(rs.getString(1), rs.getString(2)));
                }
            }
            return out;
        }
    }

    /**
     * Sets parameter {@code index} of {@code ps} to the {@code expires_at} value of {@code info}: its
     * expiry as epoch nanoseconds, or NULL when it never expires.
     *
     * @throws SQLException when the driver refuses the value
     */
    public static void setExpiresAt(PreparedStatement ps, int index, SessionInfo info) throws SQLException {
        if (info.expiresAt() == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, EpochNanos.of(info.expiresAt()));
        }
    }

    /**
     * One page read off a listing's rows: columns (id, info, head, updated as epoch nanoseconds), most
     * recent first, the query asking for {@code limit + 1} rows so that one more row means a next page;
     * the next cursor is formatted with the query's {@code tag}.
     *
     * @throws SQLException when the database fails the statement
     */
    public static Page<SessionSummary> page(ResultSet rs, int limit, String tag) throws SQLException {
        List<SessionSummary> items = new ArrayList<>();
        long lastUpdated = 0;
        boolean more = false;
        while (rs.next()) {
            if (items.size() == limit) {
                more = true;
                break;
            }
            lastUpdated = rs.getLong(4);
            items.add(new SessionSummary(decode(rs.getString(1), rs.getString(2)), rs.getLong(3), EpochNanos.instant(lastUpdated)));
        }
        String next = more ? new ListingCursor(lastUpdated, items.get(items.size() - 1).info().id()).format(tag) : null;
        return new Page<>(items, next);
    }
}
