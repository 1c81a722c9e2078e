package dev.threadline.store.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.json.Json;
import java.time.Instant;

/**
 * One journal entry as stored in a session's events list: a header line, a JSON array
 * {@code [v, seq, step, time, commandId, source, transcript]}, then a newline and the event's payload
 * from {@link RecordCodec} (compact JSON has no raw newline, so the first one ends the header). The
 * header is read without decoding the payload, so a transcript read skips other events cheaply. Sealed
 * (encryption at rest) the payload comes first, as raw sealed bytes, and the header stays in clear after the
 * last newline ({@link Sealer#sealWithTail}); entries of both forms read side by side. Stateless.
 */
final class EventEntry {
    private EventEntry() {}

    /** The entry of event {@code e} of a session of {@code tenant}, sealed when {@code sealer} is on. */
    static String encode(StoredEvent e, String tenant, Sealer sealer) {
        ArrayNode h = Json.mapper().createArrayNode();
        h.add(RecordCodec.VERSION).add(e.seq()).add(e.step()).add(e.time().toString()).add(e.commandId())
                .add(e.source().wireName()).add(e.event().touchesTranscript() ? 1 : 0);
        if (sealer.on()) {
            return sealer.sealWithTail(RecordCodec.encodeEvent(e.event()), h.toString(), place(tenant, e.sessionId(), e.seq()));
        }
        return h + "\n" + RecordCodec.encodeEvent(e.event());
    }

    /** The place of the event at {@code seq} of a session of {@code tenant}. */
    static Sealer.Place place(String tenant, String sessionId, long seq) {
        return new Sealer.Place("event", tenant, sessionId, Long.toString(seq));
    }

    /** The entries, in order, without those that do not shape the transcript when {@code transcriptOnly}. */
    static java.util.List<StoredEvent> decodeAll(dev.threadline.core.store.SessionKey key, java.util.List<String> entries,
                                                 boolean transcriptOnly, Sealer sealer) {
        java.util.List<StoredEvent> out = new java.util.ArrayList<>();
        for (String entry : entries) {
            StoredEvent e = decode(key, entry, transcriptOnly, sealer);
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    /** The entry, or null when {@code transcriptOnly} and it does not shape the transcript. */
    static StoredEvent decode(dev.threadline.core.store.SessionKey key, String entry, boolean transcriptOnly, Sealer sealer) {
        String sessionId = key.id();
        boolean sealed = Sealer.sealed(entry);
        int eol = entry == null ? -1 : sealed ? entry.lastIndexOf('\n') : entry.indexOf('\n');
        if (eol < 0) {
            throw new StorageException("session '" + sessionId + "': corrupt event entry (no header line)");
        }
        String header = sealed ? Sealer.tail(entry) : entry.substring(0, eol);
        JsonNode h;
        try {
            h = Json.mapper().readTree(header);
        } catch (Exception e) {
            throw new StorageException("session '" + sessionId + "': corrupt event entry header", e);
        }
        if (!h.isArray() || h.size() != 7) {
            throw new StorageException("session '" + sessionId + "': corrupt event entry header "
                    + header.substring(0, Math.min(header.length(), 120)));
        }
        long seq = h.get(1).asLong();
        if (transcriptOnly && h.get(6).asInt() == 0) {
            return null;
        }
        String payload = sealed ? sealer.openHead(entry, place(key.tenant(), sessionId, seq)) : entry.substring(eol + 1);
        Event event;
        try {
            event = RecordCodec.decodeEvent(sessionId, seq, h.get(0).asInt(), payload);
        } catch (StorageException e) {
            throw new StorageException(firstLine(e.getMessage()), e.getCause() == null ? e : e.getCause());
        }
        try {
            return new StoredEvent(sessionId, seq, h.get(2).asLong(), Instant.parse(h.get(3).asText()),
                    h.get(4).isNull() ? null : h.get(4).asText(), CheckpointSource.fromWire(h.get(5).asText()), event);
        } catch (RuntimeException e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event entry ("
                    + firstLine(e.getMessage()) + ")", e);
        }
    }

    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int eol = message.indexOf('\n');
        String line = eol < 0 ? message : message.substring(0, eol) + "…";
        return line.length() > 240 ? line.substring(0, 240) + "…" : line;
    }
}
