package dev.threadline.core.testkit;

import dev.threadline.core.event.Event;
import dev.threadline.core.internal.json.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A test-only SPI: the record codec's stored form of events, the text Threadline's stores write for an event and parse
 * back, for tests and benchmarks that measure it (bytes per message, a raw read-and-parse beside a
 * store's own). Not the wire form: {@link dev.threadline.core.json.Json} writes an event for clients, and
 * the stored form leaves out what a reader restores (since record version 3, a usage's zero counts;
 * ADR 0025). Applications never need it: stores take events, not bytes. Stateless and thread-safe.
 */
public final class Codec {
    /** The record version the stores write (and read without an upgrade). */
    public static final int VERSION = RecordCodec.VERSION;

    private Codec() {}

    /** The stored payload of {@code event}. */
    public static String payload(Event event) {
        return RecordCodec.encodeEvent(event);
    }

    /** The size of {@link #payload} in UTF-8 bytes. */
    public static long bytes(Event event) {
        return payload(event).getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * Parses one stored event row as the stores do (upgrading an older version).
     *
     * @throws dev.threadline.core.error.StorageException naming the session and seq when the row is corrupt or of a newer version
     */
    public static Event parse(String session, long seq, int version, String payload) {
        return RecordCodec.decodeEvent(session, seq, version, payload);
    }

    /**
     * Parses one sealed transcript segment (ADR 0028) of seqs {@code firstSeq..lastSeq} as the stores do:
     * one parse of its array.
     *
     * @throws dev.threadline.core.error.StorageException naming the session when the segment is corrupt or of a newer version
     */
    public static List<Event> parseSegment(String session, long firstSeq, long lastSeq, int version, byte[] json) {
        return RecordCodec.decodeSegment(session, firstSeq, lastSeq, version, json);
    }
}
