package dev.threadline.core.internal.store;

import dev.threadline.core.StorageException;
import dev.threadline.core.event.Event;
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
}
