package dev.threadline.store.sqlite;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.DuplicateCommandException;
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
import java.time.Instant;
import java.util.List;

/**
 * The work of a create and of an append, as {@link SqlWork} for the writer: every check (lease
 * epoch, expected seq, batch numbering, command record) runs inside the write's own savepoint of a
 * group commit, so a refused write fails alone and leaves nothing behind. JSON is encoded when the work
 * is built, on the caller's thread, before the write lock is taken; payloads are bound as the store's
 * {@link Sealing} says (sealed under keys the caller made ready), and a sealing store writes no text index
 * rows. Stateless.
 */
final class JournalWrites {
    private JournalWrites() {}

    /** Creates a session with its first events and, if any, its command record. */
    static SqlWork<Void> create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command, Clock clock, Sealing sealing) {
        return create(info, null, firstEvents, command, clock, sealing);
    }

    /**
     * Creates a session as {@link #create} does, or, when {@code base} is not null, one whose history starts from it
     * ({@link dev.threadline.core.store.HistoryPruning#createFromBase}): the base kept (sealed as a prune's) in the same write.
     */
    static SqlWork<Void> create(SessionInfo info, HistoryBase base, List<StoredEvent> firstEvents, CommandRecord command, Clock clock,
                                Sealing sealing) {
        SessionKey key = SessionKey.of(info);
        String basePayload = base == null ? null : RecordCodec.encodeBase(base);
        List<EventRows.Row> rows = EventRows.encode(firstEvents);
        List<TextRows.Doc> docs = sealing.on() ? List.of() : TextRows.docs(firstEvents); // no plaintext index when sealed
        String json = RecordCodec.encodeSession(info);
        return c -> {
            if (SessionRows.positionOrNull(c, key) != null) {
                throw new SessionExistsException(info.id());
            }
            if (info.parentId() != null) {
                StoreChecks.branchPoint(info, SessionRows.head(c, key.sibling(info.parentId())),
                        HistoryBaseRows.seq(c, key.sibling(info.parentId())));
            }
            if (base == null) {
                StoreChecks.batch(info.id(), info.parentSeq(), firstEvents);
                StoreChecks.createCommand(info, command);
            } else {
                StoreChecks.fromBase(info, base, firstEvents, command);
            }
            if (command != null && !command.session().equals(key)) {
                refuseDuplicate(c, command, sealing);
            }
            Instant now = clock.instant();
            SessionRows.insert(c, info, json, now);
            if (base != null) {
                HistoryBaseRows.keep(c, key, base.seq(), basePayload, sealing);
            }
            EventRows.insert(c, key, rows, now, sealing);
            TextRows.insert(c, TextIndex.INSTANCE, key, docs);
            if (command != null) {
                CommandRows.insert(c, command, sealing);
            }
            return null;
        };
    }

    /** Appends a step: checks the epoch, then the head, then the batch and the command; returns the new head. */
    static SqlWork<Long> append(AppendRequest request, Clock clock, Sealing sealing) {
        SessionKey key = request.key();
        List<EventRows.Row> rows = EventRows.encode(request.events());
        List<TextRows.Doc> docs = sealing.on() ? List.of() : TextRows.docs(request.events()); // no plaintext index when sealed
        List<SharedRows.VariableChange> changes = SharedRows.encode(request.writes());
        return c -> {
            SessionTable.Position at = SessionRows.position(c, key);
            if (at.epoch() != request.epoch()) {
                throw new LeaseLostException(key.id(), request.epoch(), at.epoch());
            }
            if (at.head() != request.expectedSeq()) {
                throw new VersionConflictException(key.id(), request.expectedSeq(), at.head());
            }
            StoreChecks.batch(key.id(), request.expectedSeq(), request.events());
            StoreChecks.command(request);
            if (request.command() != null) {
                refuseDuplicate(c, request.command(), sealing);
            }
            EventRows.insert(c, key, rows, clock.instant(), sealing); // the head moves with the journal: no sessions row to write
            TextRows.insert(c, TextIndex.INSTANCE, key, docs); // the index in the same savepoint as the events
            long newHead = request.expectedSeq() + rows.size();
            SharedRows.apply(c, changes, sealing);
            if (request.command() != null) {
                CommandRows.insert(c, request.command(), sealing); // only steps that carry a command id write this table
            }
            return newHead;
        };
    }

    private static void refuseDuplicate(Connection c, CommandRecord command, Sealing sealing) throws SQLException {
        CommandRecord existing = CommandRows.find(c, command.session(), command.commandId(), sealing);
        if (existing != null) {
            throw new DuplicateCommandException(existing);
        }
    }
}
