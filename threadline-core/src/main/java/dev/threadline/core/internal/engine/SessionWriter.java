package dev.threadline.core.internal.engine;

import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.export.ExportLines;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes sessions into a store as they were written elsewhere (another store, an import file), through
 * the store SPI only, and compares them afterwards; keeps the counts of a {@link CopyReport}.
 *
 * <p>A session goes in as it was written: its description as it is, then its own events step by step
 * ({@code create} with the first step, then one {@code append} per step with the expected seq), seqs,
 * steps, times and command ids unchanged; of the shared-variable writes a step's events carry, those that
 * are the last of their variable ({@link SharedWrites}) are applied with it; a command record (a caller's command id) with the step that starts its command, a fork's
 * record with the fork's create. The caller hands parents in before their branches.
 *
 * <p>Resumable: a session the destination has a prefix of is compared event by event with the source over
 * that prefix and continued from its head; one it has whole is only compared. One whose description or
 * events differ is refused, naming it and the first differing seq, and nothing more is written to it.
 * The appends of a session are made under the destination's lease for it, held by {@value #OWNER} (a
 * rerun takes over its own lease at once; a session in use there is refused), renewed once a third of
 * its hold has passed by the writer's {@link Clock} (the caller's, so a test that moves its own clock
 * drives the renewals without waiting), and each append is a compare-and-set on the head, so nothing is
 * written twice. Last, the session's own events are read back
 * and compared with the source's.
 *
 * <p>A pruned session (ADR 0045) goes in from its base ({@link dev.threadline.core.store.HistoryPruning#createFromBase}
 * with its first step after it), then as any other; a rerun finds the destination's base equal to the source's
 * and continues, and one whose base differs is refused, naming the session. Its bases are compared with its events.
 *
 * <p>Used by one thread at a time.
 */
final class SessionWriter {
    /** The lease owner of the appends: the same in every run, so a rerun after a kill takes it over. */
    static final String OWNER = "threadline-copy";
    static final Duration HOLD = Duration.ofSeconds(60);
    /** How long the lease is used before it is renewed: a third of its hold. */
    static final Duration RENEW_AFTER = HOLD.dividedBy(3);
    static final int CHUNK = 500;

    private final StateStore to;
    private final SharedWrites shared;
    private final Clock clock;
    int sessions;
    int created;
    int resumed;
    long events;
    long present;
    int commands;
    long compared;

    /**
     * A writer to {@code to} that applies the shared-variable writes {@code shared} picks (it has seen every
     * event to write), timing its lease renewals on {@code clock}.
     */
    SessionWriter(StateStore to, SharedWrites shared, Clock clock) {
        this.to = to;
        this.shared = shared;
        this.clock = clock;
    }

    CopyReport report(String tenant) {
        return new CopyReport(tenant, sessions, created, resumed, events, present, commands, compared);
    }

    /** Writes (or resumes, or only compares) one session. */
    CopyReport.Copied write(SessionSource source) {
        SessionInfo info = source.info();
        SessionKey key = SessionKey.of(info);
        long base = source.start(); // a pruned session's own events start after its base
        long head = source.head();
        Steps steps = new Steps(source, key, base + 1, head);
        Map<String, Optional<CommandRecord>> records = new HashMap<>();
        long had = 0;
        Optional<SessionInfo> there = to.session(key);
        if (there.isPresent()) {
            if (!there.get().equals(info)) {
                throw new ThreadlineException(named(key) + " is in the destination with another description (created "
                        + there.get().createdAt() + ", parent " + there.get().parentId() + "; the source's: created " + info.createdAt()
                        + ", parent " + info.parentId() + "); it was not copied");
            }
            PrunedCopies.sameBase(to, key, source.base());
            had = matchingPrefix(key, steps, to.head(key), head);
        }
        long before = events;
        if (there.isEmpty()) {
            List<StoredEvent> first = steps.next();
            CommandRecord record = source.base().isPresent() ? recordAt(source, records, key, first.getFirst())
                    : createRecord(source, records, key, info, first.getFirst());
            try {
                if (source.base().isPresent()) {
                    to.createFromBase(info, source.base().get(), first, record);
                } else {
                    to.create(info, first, record);
                }
            } catch (SessionExistsException e) {
                return write(source); // made meanwhile by another copy: compared like a rerun's
            }
            created++;
            events += first.size();
            commands += record == null ? 0 : 1;
        } else if (steps.hasNext()) {
            resumed++;
        }
        if (steps.hasNext()) {
            appendRest(key, info, steps, source, records);
        }
        present += had;
        Optional<StateSnapshot> snap = source.snapshot();
        if (snap.isPresent() && snap.get().seq() <= head
                && to.latestSnapshot(key, head).map(s -> s.seq() < snap.get().seq()).orElse(true)) {
            to.saveSnapshot(key, snap.get());
        }
        PrunedCopies.sameBase(to, key, source.base());
        compared += compare(source, key, base, head);
        sessions++;
        return new CopyReport.Copied(key.id(), head, events - before, had);
    }

    /** Compares the destination's own events up to {@code destHead} with the source's, consuming them; how many. */
    private long matchingPrefix(SessionKey key, Steps steps, long destHead, long head) {
        if (destHead > head) {
            throw new ThreadlineException(named(key) + " has more events in the destination (head " + destHead
                    + ") than in the source (head " + head + "); it was not copied");
        }
        long n = 0;
        while (steps.position() <= destHead) {
            List<StoredEvent> step = steps.nextUpTo(destHead);
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

    private void appendRest(SessionKey key, SessionInfo info, Steps steps, SessionSource source, Map<String, Optional<CommandRecord>> records) {
        Lease lease = switch (to.acquire(key, OWNER, HOLD, null)) {
            case LeaseResult.Acquired a -> a.lease();
            case LeaseResult.Held h -> throw new ThreadlineException(named(key) + " is in use in the destination (its lease is held by "
                    + h.current().owner() + " until " + h.current().expiresAt() + "); copy again once it is free");
        };
        Instant renewed = clock.instant();
        try {
            while (steps.hasNext()) {
                List<StoredEvent> step = steps.next();
                if (Duration.between(renewed, clock.instant()).compareTo(RENEW_AFTER) > 0) {
                    lease = to.renew(lease, HOLD);
                    renewed = clock.instant();
                }
                StoredEvent first = step.getFirst();
                CommandRecord record = recordAt(source, records, key, first);
                try {
                    to.append(new AppendRequest(key, first.seq() - 1, lease.epoch(), step,
                            shared.of(info, step), record));
                } catch (DuplicateCommandException e) {
                    throw new ThreadlineException(named(key) + " already has command " + record.commandId() + " in the destination at seq "
                            + e.existing().seq() + ", not at seq " + first.seq() + "; it was copied up to seq " + (first.seq() - 1), e);
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

    /** The source's record of the command whose first event is {@code first}, or null. */
    private static CommandRecord recordAt(SessionSource source, Map<String, Optional<CommandRecord>> records, SessionKey key, StoredEvent first) {
        return records.computeIfAbsent(first.commandId(), id -> source.command(key, id))
                .filter(c -> c.seq() == first.seq()).orElse(null);
    }

    /** A create's record: on the session itself at its first seq, or (a fork) on its parent at the branch point. */
    private static CommandRecord createRecord(SessionSource source, Map<String, Optional<CommandRecord>> records, SessionKey key,
                                              SessionInfo info, StoredEvent first) {
        CommandRecord own = recordAt(source, records, key, first);
        if (own != null || info.parentId() == null) {
            return own;
        }
        return source.command(key.sibling(info.parentId()), first.commandId())
                .filter(c -> c.seq() == info.parentSeq() && key.id().equals(c.result())).orElse(null);
    }

    /** Reads the destination's own events up to {@code head} back and compares each with the source's; how many. */
    private long compare(SessionSource source, SessionKey key, long base, long head) {
        long n = 0;
        for (long lo = base + 1; lo <= head; lo += CHUNK) {
            long hi = Math.min(head, lo + CHUNK - 1);
            List<StoredEvent> a = source.readOwn(lo, hi);
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

    private static String named(SessionKey key) {
        return "session '" + key.id() + "' of tenant " + key.tenant();
    }

    private static ThreadlineException differs(SessionKey key, long seq) {
        return new ThreadlineException(named(key) + " differs between the source and the destination at seq " + seq
                + "; it was not copied further (remove it from the destination, or copy to another store)");
    }

    /** A session's own events from {@code fromSeq} to {@code toSeq}, read in chunks and handed out one step at a time. */
    private static final class Steps {
        private final SessionSource source;
        private final SessionKey key;
        private final long last;
        private final List<StoredEvent> buffer = new ArrayList<>();
        private long position;

        Steps(SessionSource source, SessionKey key, long fromSeq, long toSeq) {
            this.source = source;
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
            fill();
            List<StoredEvent> step = new ArrayList<>();
            long stepNo = buffer.getFirst().step();
            while (position <= limit && position <= last) {
                fill();
                StoredEvent e = buffer.getFirst();
                if (e.step() != stepNo) {
                    break;
                }
                step.add(buffer.removeFirst());
                position++;
            }
            return step;
        }

        private void fill() {
            if (!buffer.isEmpty()) {
                return;
            }
            long hi = Math.min(last, position + CHUNK - 1);
            List<StoredEvent> read = source.readOwn(position, hi);
            if (read.size() != hi - position + 1 || read.getFirst().seq() != position) {
                throw new StorageException(named(key) + ": the source's journal has " + read.size() + " events at seq " + position
                        + ".." + hi + ", expected " + (hi - position + 1));
            }
            buffer.addAll(read);
        }
    }
}
