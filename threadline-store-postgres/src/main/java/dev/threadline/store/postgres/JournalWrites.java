package dev.threadline.store.postgres;

import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.CommandRows;
import dev.threadline.store.jdbc.HistoryBaseRows;
import dev.threadline.store.jdbc.Sealing;
import dev.threadline.store.jdbc.SessionTable;
import dev.threadline.store.jdbc.SqlWork;
import dev.threadline.store.jdbc.TextRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;

/**
 * The work of a create, as {@link SqlWork} for one write transaction: the key checked free, the branch
 * point checked against the parent's head (held {@code FOR SHARE} until the commit), the batch and the
 * command checked, then the session's rows, its first events and its command record. (An append is
 * {@link StepStatement}'s, run by the store.) Stateless.
 */
final class JournalWrites {
    private JournalWrites() {}

    /** Creates the session with its first events and, when given, its command record. */
    static SqlWork<Void> create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command, Clock clock) {
        SessionKey key = SessionKey.of(info);
        List<EventRows.Row> rows = EventRows.encode(firstEvents);
        return c -> {
            if (SessionRows.exists(c, key)) {
                throw new SessionExistsException(info.id());
            }
            if (info.parentId() != null) {
                SessionTable.Position parent = SessionRows.positionOrNull(c, key.sibling(info.parentId()), " FOR SHARE");
                if (parent == null) {
                    throw new SessionNotFoundException(info.parentId());
                }
                StoreChecks.branchPoint(info, parent.head(), HistoryBaseRows.seq(c, key.sibling(info.parentId())));
            }
            StoreChecks.batch(info.id(), info.parentSeq(), firstEvents);
            StoreChecks.createCommand(info, command);
            if (command != null && !command.session().equals(key)) {
                CommandRows.record(c, command, Sealing.TEXT);
            }
            if (!SessionRows.insert(c, info, info.parentSeq() + rows.size(), clock.instant())) {
                throw new SessionExistsException(info.id());
            }
            insertRows(c, key, rows, firstEvents);
            if (command != null && command.session().equals(key)) {
                CommandRows.record(c, command, Sealing.TEXT);
            }
            return null;
        };
    }

    /** Inserts a create's or a large step's events and their messages' full-text rows, in the caller's transaction. */
    static void insertRows(Connection c, SessionKey key, List<EventRows.Row> rows, List<StoredEvent> events) throws SQLException {
        EventRows.insert(c, key, rows);
        TextRows.insert(c, PgText.INSTANCE, key, TextRows.docs(events));
    }
}
