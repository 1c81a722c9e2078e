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
 * header is read without decoding the payload, so a transcript read skips other events cheaply.
 * Stateless.
 */
final class EventEntry {
    private EventEntry() {}

    static String encode(StoredEvent e) {
        ArrayNode h = Json.mapper().createArrayNode();
        h.add(RecordCodec.VERSION).add(e.seq()).add(e.step()).add(e.time().toString()).add(e.commandId())
                .add(e.source().wireName()).add(e.event().touchesTranscript() ? 1 : 0);
        return h + "\n" + RecordCodec.encodeEvent(e.event());
    }

    /** The entries, in order, without those that do not shape the transcript when {@code transcriptOnly}. */
    static java.util.List<StoredEvent> decodeAll(String sessionId, java.util.List<String> entries, boolean transcriptOnly) {
        java.util.List<StoredEvent> out = new java.util.ArrayList<>();
        for (String entry : entries) {
            StoredEvent e = decode(sessionId, entry, transcriptOnly);
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    /** The entry, or null when {@code transcriptOnly} and it does not shape the transcript. */
    static StoredEvent decode(String sessionId, String entry, boolean transcriptOnly) {
        int eol = entry == null ? -1 : entry.indexOf('\n');
        if (eol < 0) {
            throw new StorageException("session '" + sessionId + "': corrupt event entry (no header line)");
        }
        JsonNode h;
        try {
            h = Json.mapper().readTree(entry.substring(0, eol));
        } catch (Exception e) {
            throw new StorageException("session '" + sessionId + "': corrupt event entry header", e);
        }
        if (!h.isArray() || h.size() != 7) {
            throw new StorageException("session '" + sessionId + "': corrupt event entry header " + entry.substring(0, Math.min(eol, 120)));
        }
        long seq = h.get(1).asLong();
        if (transcriptOnly && h.get(6).asInt() == 0) {
            return null;
        }
        Event event;
        try {
            event = RecordCodec.decodeEvent(sessionId, seq, h.get(0).asInt(), entry.substring(eol + 1));
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
