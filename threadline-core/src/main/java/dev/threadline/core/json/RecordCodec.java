package dev.threadline.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Encodes and decodes every stored record. Each record is stored with the schema version it was
 * written in; reading an older one runs the upgrades from its version to {@link #VERSION} in order
 * (index i upgrades version i+1 to i+2), so migrations are code and old rows stay readable.
 */
public final class RecordCodec {
    /** The schema version this code writes. */
    public static final int VERSION = 1;

    /** Upgrades of event payloads: element i turns a version i+1 payload into a version i+2 one. */
    private static final List<UnaryOperator<ObjectNode>> EVENT_UPGRADES = List.of();

    private RecordCodec() {}

    public static String encodeEvent(Event event) {
        return Json.write(event);
    }

    /**
     * Decodes a stored event payload of the given schema version.
     *
     * @throws StorageException naming the session and seq when the row is corrupt or from a newer version
     */
    public static Event decodeEvent(String sessionId, long seq, int version, String payload) {
        if (version > VERSION) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + " was written by a newer Threadline"
                    + " (schema " + version + ", this one reads up to " + VERSION + "); upgrade Threadline to read it");
        }
        try {
            if (version == VERSION) { // nothing to upgrade: one pass straight to the event (the hot path of every load)
                Event event = Json.mapper().readValue(payload, Event.class);
                if (event == null) {
                    throw new StorageException("session '" + sessionId + "' seq " + seq + ": event payload is not a JSON object");
                }
                return event;
            }
            JsonNode node = Json.mapper().readTree(payload);
            if (!(node instanceof ObjectNode obj)) {
                throw new StorageException("session '" + sessionId + "' seq " + seq + ": event payload is not a JSON object");
            }
            for (int v = version; v < VERSION; v++) {
                obj = EVENT_UPGRADES.get(v - 1).apply(obj);
            }
            return Json.mapper().treeToValue(obj, Event.class);
        } catch (StorageException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row (" + e.getMessage() + ")", e);
        }
    }

    public static String encodeSnapshot(StateSnapshot snapshot) {
        return Json.write(snapshot);
    }

    public static StateSnapshot decodeSnapshot(String sessionId, int version, String payload) {
        if (version != VERSION) {
            return null; // snapshots are a cache: an old one is ignored and the journal replayed instead
        }
        try {
            return Json.mapper().readValue(payload, StateSnapshot.class);
        } catch (Exception e) {
            return null; // a corrupt snapshot costs replay time, never correctness
        }
    }

    public static String encodeSession(SessionInfo info) {
        return Json.write(info);
    }

    public static SessionInfo decodeSession(String id, String payload) {
        try {
            return Json.mapper().readValue(payload, SessionInfo.class);
        } catch (Exception e) {
            throw new StorageException("session '" + id + "': corrupt session row (" + e.getMessage() + ")", e);
        }
    }

    /** One journal entry as a JSON object, the line format of {@code threadline sessions export}. */
    public static ObjectNode exportLine(StoredEvent e) {
        ObjectNode o = Json.object();
        o.put("v", VERSION);
        o.put("session", e.sessionId());
        o.put("seq", e.seq());
        o.put("step", e.step());
        o.put("time", e.time().toString());
        o.put("command", e.commandId());
        o.put("source", e.source().wireName());
        o.set("event", Json.tree(e.event()));
        return o;
    }

    /** Reads an export line back (the inverse of {@link #exportLine}). */
    public static StoredEvent importLine(JsonNode line) {
        int v = line.path("v").asInt(VERSION);
        String session = line.path("session").asText();
        long seq = line.path("seq").asLong();
        Event event = decodeEvent(session, seq, v, line.path("event").toString());
        return new StoredEvent(session, seq, line.path("step").asLong(), Instant.parse(line.path("time").asText()),
                line.path("command").asText(), CheckpointSource.fromWire(line.path("source").asText()), event);
    }
}
