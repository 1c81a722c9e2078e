package dev.threadline.store.jdbc;

import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The {@code commands} table: the caller-supplied command ids of each session, unique per (tenant,
 * session), written in the transaction of the command's first step or of the create. Only steps that
 * carry a command id write here, so an ordinary step's bytes are unchanged by it. Stateless.
 */
public final class CommandRows {
    private CommandRows() {}

    /**
     * The record of {@code commandId} under {@code key}, or null; the result read as {@code sealing} says.
     *
     * @throws SQLException when the database fails the statement
     */
    public static CommandRecord find(Connection c, SessionKey key, String commandId, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT fingerprint, seq, " + sealing.columns("result") + " FROM commands"
                + " WHERE tenant = ? AND session_id = ? AND command_id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setString(3, commandId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new CommandRecord(key, commandId, rs.getString(1), rs.getLong(2),
                        sealing.text(rs, 3, place(key, commandId))) : null;
            }
        }
    }

    /**
     * Inserts the record unless its id is already recorded for the session; false when it is (the
     * unique key decides, so of two transactions racing with one id exactly one inserts it). The result is
     * bound as {@code sealing} says (a null result stays null).
     *
     * @throws SQLException when the database fails the statement
     */
    public static boolean insert(Connection c, CommandRecord r, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO commands (tenant, session_id, command_id, fingerprint,"
                + " seq, " + sealing.columns("result") + ") VALUES (?, ?, ?, ?, ?, " + sealing.params()
                + ") ON CONFLICT (tenant, session_id, command_id) DO NOTHING")) {
            ps.setString(1, r.session().tenant());
            ps.setString(2, r.session().id());
            ps.setString(3, r.commandId());
            ps.setString(4, r.fingerprint());
            ps.setLong(5, r.seq());
            if (r.result() == null) {
                sealing.bindNull(ps, 6);
            } else {
                sealing.bind(ps, 6, r.result(), place(r.session(), r.commandId()));
            }
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * Deletes every command record of the session.
     *
     * @throws SQLException when the database fails the statement
     */
    public static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM commands WHERE tenant = ? AND session_id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }

    /**
     * Inserts the record, or refuses with {@link DuplicateCommandException} carrying the one already there; the
     * result bound and read as {@code sealing} says.
     *
     * @throws SQLException when the database fails the statement
     */
    public static void record(Connection c, CommandRecord r, Sealing sealing) throws SQLException {
        if (!insert(c, r, sealing)) {
            throw new DuplicateCommandException(find(c, r.session(), r.commandId(), sealing));
        }
    }

    private static Sealing.Place place(SessionKey key, String commandId) {
        return new Sealing.Place("command", key.tenant(), key.id(), commandId);
    }
}
