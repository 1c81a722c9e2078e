package dev.threadline.store.postgres;

import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.CommandRows;
import dev.threadline.store.jdbc.HistoryBaseRows;
import dev.threadline.store.jdbc.Sealing;
import dev.threadline.store.jdbc.SessionTable;
import dev.threadline.store.jdbc.SharedRows;
import dev.threadline.store.jdbc.SqlWork;
import dev.threadline.store.jdbc.TextRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;

/**
 * The work of a create, as {@link SqlWork} for one write transaction: the key checked free, the branch
 * point checked against the parent's head (held {@code FOR SHARE} until the commit), the batch and the
 * command checked, then the session's rows, its first events and its command record, their payloads sealed at
 * rest when the store's {@link Sealing} is on (under keys the caller made ready; no message indexed then). (An
 * append is {@link StepStatement}'s, run by the store.) Stateless.
 */
final class JournalWrites {
    private JournalWrites() {}

    /** Creates the session with its first events and, when given, its command record. */
    static SqlWork<Void> create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command, Clock clock,
                                Sealing sealing) {
        return create(info, null, firstEvents, command, clock, sealing);
    }

    /**
     * Creates a session as {@link #create} does, or, when {@code base} is not null, one whose history starts from it
     * ({@link dev.threadline.core.store.HistoryPruning#createFromBase}): the base kept (sealed as a prune's) in the same transaction.
     */
    static SqlWork<Void> create(SessionInfo info, HistoryBase base, List<StoredEvent> firstEvents, CommandRecord command, Clock clock,
                                Sealing sealing) {
        SessionKey key = SessionKey.of(info);
        String basePayload = base == null ? null : RecordCodec.encodeBase(base);
        long from = base == null ? info.parentSeq() : base.seq();
        List<EventRows.Row> rows = EventRows.encode(key, firstEvents, sealing);
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
            if (base == null) {
                StoreChecks.batch(info.id(), info.parentSeq(), firstEvents);
                StoreChecks.createCommand(info, command);
            } else {
                StoreChecks.fromBase(info, base, firstEvents, command);
            }
            if (command != null && !command.session().equals(key)) {
                CommandRows.record(c, command, sealing);
            }
            if (!SessionRows.insert(c, info, from + rows.size(), clock.instant())) {
                throw new SessionExistsException(info.id());
            }
            if (base != null) {
                HistoryBaseRows.keep(c, key, base.seq(), basePayload, sealing);
            }
            insertRows(c, key, rows, firstEvents);
            if (command != null && command.session().equals(key)) {
                CommandRows.record(c, command, sealing);
            }
            return null;
        };
    }

    /** Every tenant an append seals for has its key (refused on the caller's thread, before anything is written; ADR 0049). */
    static void ready(AppendRequest request, Sealing sealing) {
        if (!sealing.on()) {
            return;
        }
        sealing.ready(request.key().tenant());
        if (request.writes() != null) {
            for (ScopedWrite w : request.writes()) {
                sealing.ready(SharedRows.tenantOf(w.key()));
            }
        }
    }

    /**
     * The work of an append in one transaction ({@code rows} and {@code changes} encoded, and sealed, before):
     * the step's statement (or, for a step too large for one, the head moved and the rows inserted apart), then
     * the command record and the shared-variable writes. A head that did not move is diagnosed, or the transaction
     * runs again when the reading saw another version of the row.
     */
    static SqlWork<Long> append(AppendRequest request, List<EventRows.Row> rows, List<SharedRows.VariableChange> changes,
                                long newHead, Clock clock, Sealing sealing) {
        boolean oneStatement = rows.size() <= StepStatement.MAX_EVENTS;
        return c -> {
            long now = EpochNanos.of(clock.instant());
            boolean moved = oneStatement
                    ? StepStatement.run(c, request, rows, newHead, now)
                    : StepStatement.moveHead(c, request, newHead, now);
            if (!moved) {
                SessionRows.refusal(c, request);
                // the UPDATE and the reading above saw different versions of the row: run it all again
                throw new SQLException("session '" + request.key().id() + "' changed between the check and its reading", "40001");
            }
            if (!oneStatement) {
                insertRows(c, request.key(), rows, request.events());
            }
            if (request.command() != null) {
                CommandRows.record(c, request.command(), sealing); // only steps that carry a command id write this table
            }
            SharedRows.apply(c, changes, sealing);
            return newHead;
        };
    }

    /**
     * Inserts a create's or a large step's events and their messages' full-text rows (none when the rows are sealed:
     * no plaintext index), in the caller's transaction.
     */
    static void insertRows(Connection c, SessionKey key, List<EventRows.Row> rows, List<StoredEvent> events) throws SQLException {
        EventRows.insert(c, key, rows);
        if (!EventRows.sealed(rows)) {
            TextRows.insert(c, PgText.INSTANCE, key, TextRows.docs(events));
        }
    }
}
