package dev.threadline.core.internal.engine;

import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.export.ExportLines;
import dev.threadline.core.internal.engine.state.VariableWrites;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Copies one tenant's sessions (or one session with its ancestors and branches) from one store to
 * another, through the store SPI only, so any two backends work.
 *
 * <p>A session goes over as it was written: its description as it is, then its own events step by step
 * ({@code create} with the first step, then one {@code append} per step, with the expected seq), seqs,
 * steps, times and command ids unchanged; the shared-variable writes a step's events carry are applied
 * with it, and a command record (a caller's command id) with the step that starts its command, a fork's
 * record with the fork's create. A parent is copied before its branches (a branch stores only its own
 * events and needs its parent's prefix there).
 *
 * <p>A rerun after a crash resumes: a session the destination has a prefix of is compared event by event
 * with the source over that prefix and continued from its head; one it has whole is only compared. A
 * destination session whose description or events differ from the source's is refused, naming it and
 * the first differing seq, and nothing more is written to it. The appends of a session are made under
 * the destination's lease for that session, held by {@value #OWNER} (a rerun takes over its own lease at
 * once; a session in use there is refused), and each is a compare-and-set on the head, so nothing is
 * ever written twice. Finally each copied session's own events are read back from the destination and
 * compared with the source's.
 *
 * <p>Used by one thread at a time (one instance per copy).
 */
public final class StoreCopy {
    /** The lease owner of a copy's appends: the same in every run, so a rerun after a kill takes it over. */
    public static final String OWNER = "threadline-copy";
    private static final Duration HOLD = Duration.ofSeconds(60);
    private static final int CHUNK = 500;

    private final StateStore from;
    private final StateStore to;
    private final Consumer<CopyReport.Copied> progress;
    private int created;
    private int resumed;
    private long events;
    private long present;
    private int commands;
    private long compared;

    /** A copy from {@code from} to {@code to} that tells {@code progress} of each session once it is copied. */
    public StoreCopy(StateStore from, StateStore to, Consumer<CopyReport.Copied> progress) {
        this.from = from;
        this.to = to;
        this.progress = progress;
    }

    /**
     * Copies the tenant's sessions, or, when {@code sessionId} is not null, that session with its ancestors
     * and its branches.
     *
     * @throws SessionNotFoundException when {@code sessionId} is not a session of the tenant in the source
     * @throws ThreadlineException      when a destination session differs from the source's, naming it
     */
    public CopyReport copy(String tenant, String sessionId) {
        List<SessionInfo> order = order(tenant, sessionId == null ? all(tenant) : family(new SessionKey(tenant, sessionId)));
        for (SessionInfo info : order) {
            progress.accept(copyOne(info));
        }
        return new CopyReport(tenant, order.size(), created, resumed, events, present, commands, compared);
    }

    // ---- which sessions, in which order ---------------------------------------------------------------

    private Map<String, SessionInfo> all(String tenant) {
        Map<String, SessionInfo> out = new LinkedHashMap<>();
        Page<SessionSummary> page = from.list(SessionQuery.tenant(tenant));
        while (true) {
            page.items().forEach(s -> out.put(s.info().id(), s.info()));
            if (!page.hasNext()) {
                return out;
            }
            page = from.list(SessionQuery.tenant(tenant).at(page.nextCursor()));
        }
    }

    /** The session, its ancestors and every branch below it. */
    private Map<String, SessionInfo> family(SessionKey key) {
        Map<String, SessionInfo> out = new LinkedHashMap<>();
        List<SessionKey> todo = new ArrayList<>(List.of(key));
        while (!todo.isEmpty()) {
            SessionKey k = todo.removeLast();
            SessionInfo info = from.session(k).orElseThrow(() -> new SessionNotFoundException(k.id()));
            out.put(k.id(), info);
            from.branches(k).forEach(b -> todo.add(k.sibling(b)));
        }
        return out;
    }

    /** Every session after its parent (parents missing from {@code sessions} are added), ids sorted otherwise. */
    private List<SessionInfo> order(String tenant, Map<String, SessionInfo> sessions) {
        List<SessionInfo> out = new ArrayList<>();
        Map<String, Boolean> placed = new HashMap<>();
        for (String id : new TreeSet<>(sessions.keySet())) {
            place(tenant, id, sessions, placed, out);
        }
        return out;
    }

    private void place(String tenant, String id, Map<String, SessionInfo> sessions, Map<String, Boolean> placed, List<SessionInfo> out) {
        if (placed.putIfAbsent(id, Boolean.TRUE) != null) {
            return;
        }
        SessionInfo info = sessions.get(id);
        if (info == null) {
            info = from.session(new SessionKey(tenant, id)).orElseThrow(() -> new SessionNotFoundException(id));
        }
        if (info.parentId() != null) {
            place(tenant, info.parentId(), sessions, placed, out);
        }
        out.add(info);
    }

    // ---- one session ---------------------------------------------------------------------------------

    private CopyReport.Copied copyOne(SessionInfo info) {
        SessionKey key = SessionKey.of(info);
        long base = info.parentSeq();
        long head = from.head(key);
        Steps source = new Steps(from, key, base + 1, head);
        long had = 0;
        Optional<SessionInfo> there = to.session(key);
        if (there.isPresent()) {
            if (!there.get().equals(info)) {
                throw new ThreadlineException("session '" + key.id() + "' of tenant " + key.tenant() + " is in the destination with"
                        + " another description (created " + there.get().createdAt() + ", parent " + there.get().parentId()
                        + "; the source's: created " + info.createdAt() + ", parent " + info.parentId() + "); it was not copied");
            }
            had = matchingPrefix(key, source, to.head(key), head);
        }
        long copiedBefore = events;
        if (there.isEmpty()) {
            List<StoredEvent> first = source.next();
            CommandRecord record = createRecord(key, info, first.getFirst());
            try {
                to.create(info, first, record);
                created++;
                events += first.size();
                commands += record == null ? 0 : 1;
            } catch (SessionExistsException e) {
                // another copy made it meanwhile: its head is compared like a rerun's
                return copyOne(info);
            }
        } else if (had > 0) {
            resumed += source.hasNext() ? 1 : 0;
        }
        if (source.hasNext()) {
            appendRest(key, info, source);
        }
        present += had;
        copySnapshot(key, head);
        compared += compare(key, base, head);
        return new CopyReport.Copied(key.id(), head, events - copiedBefore, had);
    }

    /**
     * Compares the destination's own events (up to {@code destHead}) with the source's, consuming them from
     * {@code source}; how many there were.
     */
    private long matchingPrefix(SessionKey key, Steps source, long destHead, long head) {
        if (destHead > head) {
            throw new ThreadlineException("session '" + key.id() + "' of tenant " + key.tenant() + " has more events in the destination"
                    + " (head " + destHead + ") than in the source (head " + head + "); it was not copied");
        }
        long n = 0;
        while (source.position() <= destHead) {
            List<StoredEvent> step = source.nextUpTo(destHead);
            List<StoredEvent> mine = to.readOwn(key, step.getFirst().seq(), step.getLast().seq());
            for (int i = 0; i < step.size(); i++) {
                if (i >= mine.size() || !same(step.get(i), mine.get(i))) {
                    throw differs(key, step.get(i).seq());
                }
            }
            n += step.size();
        }
        return n;
    }

    private void appendRest(SessionKey key, SessionInfo info, Steps source) {
        Lease lease = switch (to.acquire(key, OWNER, HOLD, null)) {
            case LeaseResult.Acquired a -> a.lease();
            case LeaseResult.Held h -> throw new ThreadlineException("session '" + key.id() + "' of tenant " + key.tenant()
                    + " is in use in the destination (its lease is held by " + h.current().owner() + " until "
                    + h.current().expiresAt() + "); copy again once it is free");
        };
        long renewed = System.nanoTime();
        try {
            while (source.hasNext()) {
                List<StoredEvent> step = source.next();
                if (System.nanoTime() - renewed > HOLD.toNanos() / 3) {
                    lease = to.renew(lease, HOLD);
                    renewed = System.nanoTime();
                }
                StoredEvent first = step.getFirst();
                CommandRecord record = recordAt(key, first);
                try {
                    to.append(new AppendRequest(key, first.seq() - 1, lease.epoch(), step,
                            VariableWrites.stored(step.stream().map(StoredEvent::event).toList(), () -> info), record));
                } catch (DuplicateCommandException e) {
                    throw new ThreadlineException("session '" + key.id() + "' of tenant " + key.tenant() + " already has command "
                            + record.commandId() + " in the destination at seq " + e.existing().seq() + ", not at seq " + first.seq()
                            + "; it was copied up to seq " + (first.seq() - 1), e);
                }
                events += step.size();
                commands += record == null ? 0 : 1;
            }
        } finally {
            try {
                to.release(lease);
            } catch (RuntimeException ignored) {
                // the lease lapses by itself; the copy's outcome is what matters
            }
        }
    }

    private final Map<String, Optional<CommandRecord>> records = new HashMap<>();

    /** The source's record of the command whose first event is {@code first}, or null. */
    private CommandRecord recordAt(SessionKey key, StoredEvent first) {
        Optional<CommandRecord> r = records.computeIfAbsent(key + "\0" + first.commandId(), k -> from.command(key, first.commandId()));
        return r.filter(c -> c.seq() == first.seq()).orElse(null);
    }

    /** A create's record: on the session itself at its first seq, or (a fork) on its parent at the branch point. */
    private CommandRecord createRecord(SessionKey key, SessionInfo info, StoredEvent first) {
        CommandRecord own = recordAt(key, first);
        if (own != null || info.parentId() == null) {
            return own;
        }
        SessionKey parent = key.sibling(info.parentId());
        return from.command(parent, first.commandId())
                .filter(c -> c.seq() == info.parentSeq() && key.id().equals(c.result())).orElse(null);
    }

    private void copySnapshot(SessionKey key, long head) {
        Optional<StateSnapshot> snap = from.latestSnapshot(key, head);
        if (snap.isPresent() && to.latestSnapshot(key, head).map(s -> s.seq() < snap.get().seq()).orElse(true)) {
            to.saveSnapshot(key, snap.get());
        }
    }

    /** Reads back the destination's own events up to {@code head} and compares each with the source's; how many. */
    private long compare(SessionKey key, long base, long head) {
        long n = 0;
        for (long lo = base + 1; lo <= head; lo += CHUNK) {
            long hi = Math.min(head, lo + CHUNK - 1);
            List<StoredEvent> a = from.readOwn(key, lo, hi);
            List<StoredEvent> b = to.readOwn(key, lo, hi);
            for (int i = 0; i < a.size(); i++) {
                if (i >= b.size() || !same(a.get(i), b.get(i))) {
                    throw differs(key, a.get(i).seq());
                }
            }
            if (b.size() != a.size()) {
                throw differs(key, lo + a.size());
            }
            n += a.size();
        }
        return n;
    }

    private static boolean same(StoredEvent a, StoredEvent b) {
        return a.seq() == b.seq() && ExportLines.of(a).equals(ExportLines.of(b));
    }

    private static ThreadlineException differs(SessionKey key, long seq) {
        return new ThreadlineException("session '" + key.id() + "' of tenant " + key.tenant() + " differs between the source and"
                + " the destination at seq " + seq + "; it was not copied further (remove it from the destination, or copy to another store)");
    }

    /** A session's own events from {@code fromSeq} to {@code toSeq}, read in chunks and handed out one step at a time. */
    private static final class Steps {
        private final StateStore store;
        private final SessionKey key;
        private final long last;
        private final List<StoredEvent> buffer = new ArrayList<>();
        private long position;

        Steps(StateStore store, SessionKey key, long fromSeq, long toSeq) {
            this.store = store;
            this.key = key;
            this.last = toSeq;
            this.position = fromSeq;
        }

        /** The seq of the next event handed out. */
        long position() {
            return position;
        }

        boolean hasNext() {
            return position <= last;
        }

        /** The next step's events. */
        List<StoredEvent> next() {
            return nextUpTo(last);
        }

        /** The next step's events, ending at {@code limit} at the latest. */
        List<StoredEvent> nextUpTo(long limit) {
            fill(position);
            List<StoredEvent> step = new ArrayList<>();
            long stepNo = buffer.getFirst().step();
            while (position <= limit && position <= last) {
                fill(position);
                StoredEvent e = buffer.getFirst();
                if (e.step() != stepNo) {
                    break;
                }
                step.add(buffer.removeFirst());
                position++;
            }
            return step;
        }

        private void fill(long seq) {
            if (!buffer.isEmpty()) {
                return;
            }
            long hi = Math.min(last, seq + CHUNK - 1);
            List<StoredEvent> read = store.readOwn(key, seq, hi);
            if (read.size() != hi - seq + 1 || read.getFirst().seq() != seq) {
                throw new dev.threadline.core.error.StorageException("session '" + key.id() + "' of tenant " + key.tenant()
                        + ": the source's journal has " + read.size() + " events at seq " + seq + ".." + hi + ", expected " + (hi - seq + 1));
            }
            buffer.addAll(read);
        }
    }
}
