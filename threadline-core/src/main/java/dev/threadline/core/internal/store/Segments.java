package dev.threadline.core.internal.store;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sealed transcript segments (ADR 0028), the part every SQL store shares: when a store saves a
 * snapshot it may seal the transcript events of its own journal up to that seq into one segment (a
 * JSON array of their payloads, written once), the rows keeping their envelope and losing their payload;
 * a load then reads the transcript before its snapshot one segment at a time. Stateless.
 */
public final class Segments {
    /**
     * The fewest unsealed transcript events a snapshot seals into a new segment; fewer wait for the next
     * snapshot (a segment of a handful of events would save no per-row work on load).
     */
    public static final int MIN_EVENTS = 16;

    private Segments() {}

    /**
     * Puts a segment's events beside the seqs of the rows they were sealed from: {@code transcriptSeqs}
     * are the seqs of the segment's transcript rows (those with {@code firstSeq <= seq <= lastSeq}), in
     * order; the events of those with {@code from <= seq <= to} go into {@code out}.
     *
     * @throws StorageException naming the session and segment when the counts differ (a corrupt store)
     */
    public static void zip(String sessionId, long firstSeq, long lastSeq, List<Event> events, List<Long> transcriptSeqs,
                           long from, long to, Map<Long, Event> out) {
        if (events.size() != transcriptSeqs.size()) {
            throw new StorageException("session '" + sessionId + "' segment seq " + firstSeq + ".." + lastSeq
                    + ": corrupt segment (" + events.size() + " events for " + transcriptSeqs.size() + " sealed rows)");
        }
        for (int i = 0; i < events.size(); i++) {
            long seq = transcriptSeqs.get(i);
            if (seq >= from && seq <= to) {
                out.put(seq, events.get(i));
            }
        }
    }

    /** One segment row as a store reads it: its seq range, record version and the array's UTF-8 bytes. */
    public record Segment(long firstSeq, long lastSeq, int version, byte[] payloads) {}

    /**
     * The reads of one session's journal that the walks below need, in a store's own SQL; {@code X} is
     * the store's checked exception. Not thread-safe (one per read).
     */
    public interface Reader<X extends Exception> {
        /** The session's segments that hold any seq of {@code from..to}, in seq order. */
        List<Segment> overlapping(long from, long to) throws X;

        /** A segment's events, parsed whole (a corrupt one: a one-line {@link StorageException}). */
        List<Event> events(Segment segment) throws X;

        /** The seqs of the transcript rows of the segment's range, in order. */
        List<Long> transcriptSeqs(Segment segment) throws X;

        /**
         * Appends the events of the transcript rows in {@code from..to} read lean (payload and version
         * only); returns false, with {@code out} as it was, when one of them turned out sealed.
         */
        boolean leanRows(long from, long to, List<Event> out) throws X;

        /** The transcript events of {@code from..to} through the store's general read (sealed rows filled). */
        List<Event> fullRows(long from, long to) throws X;

        /** Returns when the session exists; throws {@link dev.threadline.core.error.SessionNotFoundException} otherwise. */
        void requireSession() throws X;
    }

    /** A row of a read whose event is sealed: its place in the read's result, and its envelope. */
    public record Envelope(int index, long seq, long step, Instant time, String commandId, CheckpointSource source) {}

    /**
     * Completes a read of rows: {@code rows} holds them in seq order, null at the place of each of
     * {@code sealed} (in seq order too), whose events come from the segments read now ({@link #sealed}).
     *
     * @throws StorageException naming the session and seq when no segment holds a sealed row's event
     * @throws dev.threadline.core.error.SessionNotFoundException when the session was deleted meanwhile
     */
    public static <X extends Exception> List<StoredEvent> fill(String sessionId, List<StoredEvent> rows, List<Envelope> sealed,
                                                               Reader<X> r) throws X {
        Map<Long, Event> events = sealed(sessionId, sealed.get(0).seq(), sealed.get(sealed.size() - 1).seq(), r);
        for (Envelope e : sealed) {
            Event event = events.get(e.seq());
            if (event == null) {
                r.requireSession(); // deleted meanwhile: not found, rather than corrupt
                throw new StorageException("session '" + sessionId + "' seq " + e.seq()
                        + ": corrupt event row (its payload is sealed but no segment holds it)");
            }
            rows.set(e.index(), new StoredEvent(sessionId, e.seq(), e.step(), e.time(), e.commandId(), e.source(), event));
        }
        return rows;
    }

    /**
     * The session's own transcript events with {@code from <= seq <= to}, without envelopes, in order: a
     * segment wholly inside the range is parsed whole; the rest is read lean, row by row, and through the
     * general read where a row turned out sealed since the segments were listed or a segment is cut by
     * the range. Segments are listed first and rows after: a row sealed meanwhile is seen as such.
     */
    public static <X extends Exception> List<Event> transcriptEvents(long from, long to, Reader<X> r) throws X {
        List<Event> out = new ArrayList<>();
        long next = from;
        for (Segment s : r.overlapping(from, to)) {
            if (s.firstSeq() > next) {
                rows(next, s.firstSeq() - 1, r, out);
            }
            if (s.firstSeq() >= from && s.lastSeq() <= to) {
                out.addAll(r.events(s));
            } else {
                out.addAll(r.fullRows(Math.max(from, s.firstSeq()), Math.min(to, s.lastSeq())));
            }
            next = Math.min(to, s.lastSeq()) + 1;
        }
        if (next <= to) {
            rows(next, to, r, out);
        }
        return out;
    }

    private static <X extends Exception> void rows(long from, long to, Reader<X> r, List<Event> out) throws X {
        if (!r.leanRows(from, to, out)) {
            out.addAll(r.fullRows(from, to));
        }
    }

    /**
     * The sealed events with {@code from <= seq <= to}, by seq: each overlapping segment parsed and put
     * beside the seqs of its transcript rows ({@link #zip}). Called after the rows were read, so every
     * NULL payload they showed has its segment here (sealing is monotonic).
     */
    public static <X extends Exception> Map<Long, Event> sealed(String sessionId, long from, long to, Reader<X> r) throws X {
        Map<Long, Event> out = new HashMap<>();
        for (Segment s : r.overlapping(from, to)) {
            zip(sessionId, s.firstSeq(), s.lastSeq(), r.events(s), r.transcriptSeqs(s), from, to, out);
        }
        return out;
    }
}
