package dev.threadline.core.internal.json;

import dev.threadline.core.json.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Encodes and decodes every stored record. Each record is stored with the schema version it was
 * written in; reading an older one runs the upgrades from its version to {@link #VERSION} in order
 * (index i upgrades version i+1 to i+2), so migrations are code and old rows stay readable.
 */
public final class RecordCodec {
    /**
     * The schema version this code writes. 2: a session config's {@code contextPolicy} is an object
     * ({@code {"type":"auto-compact",...}}) instead of a name, and configs carry {@code maxOutputTokens}
     * and {@code turnTokenBudget}; {@code ContextCompacted} may carry the summary call's {@code usage}.
     * 3: events and snapshots are written in the stored form of {@link StoredForm} (a usage leaves out
     * its zero counts; ADR 0025); it reads version 2 records as they are, so they need no upgrade.
     */
    public static final int VERSION = 3;

    /** Upgrades of event payloads: element i turns a version i+1 payload into a version i+2 one. */
    private static final List<UnaryOperator<ObjectNode>> EVENT_UPGRADES = List.of(RecordCodec::upgradeV1Event,
            UnaryOperator.identity());

    /** The reader of current-version event payloads (its deserializer looked up once). */
    private static final ObjectReader EVENT_READER = StoredForm.MAPPER.readerFor(Event.class);

    /** The writer of event payloads (its serializer looked up once, not at every append). */
    private static final ObjectWriter EVENT_WRITER = StoredForm.MAPPER.writerFor(Event.class);

    /** The oldest record version that the current reader reads as it is (no upgrade step changes it). */
    private static final int READ_AS_IS = 2;

    private RecordCodec() {}

    /** The stored form of an event (record version {@link #VERSION}). */
    public static String encodeEvent(Event event) {
        return write(EVENT_WRITER, event);
    }

    private static String write(Object value) {
        return write(StoredForm.MAPPER.writer(), value);
    }

    private static String write(ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a " + value.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
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
            if (version >= READ_AS_IS) { // nothing to upgrade: one pass straight to the event (the hot path of every load)
                Event event = EVENT_READER.readValue(payload);
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
            return StoredForm.MAPPER.treeToValue(obj, Event.class);
        } catch (StorageException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Decodes a stored event payload given as its UTF-8 bytes (what a database column hands over
     * without building a String first; Jackson's byte parser is also its fastest).
     *
     * @throws StorageException naming the session and seq when the row is corrupt or from a newer version
     */
    public static Event decodeEvent(String sessionId, long seq, int version, byte[] payload) {
        if (version > VERSION || version < READ_AS_IS || payload == null) {
            return decodeEvent(sessionId, seq, version, payload == null ? null : new String(payload, StandardCharsets.UTF_8));
        }
        try {
            Event event = EVENT_READER.readValue(payload);
            if (event == null) {
                throw new StorageException("session '" + sessionId + "' seq " + seq + ": event payload is not a JSON object");
            }
            return event;
        } catch (StorageException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageException("session '" + sessionId + "' seq " + seq + ": corrupt event row (" + e.getMessage() + ")", e);
        }
    }

    /** The reader of a sealed segment: a JSON array of current-version event payloads. */
    private static final ObjectReader SEGMENT_READER = StoredForm.MAPPER.readerFor(
            StoredForm.MAPPER.getTypeFactory().constructCollectionType(List.class, Event.class));

    /**
     * A stored payload in a form that {@link #decodeSegment} reads as it is: the payload itself when
     * its version needs no upgrade, otherwise decoded and written again in the current version. Used
     * when rows are sealed into a segment (ADR 0028), so a segment is always of the current version.
     *
     * @throws StorageException naming the session and seq when the row is corrupt or from a newer version
     */
    public static String sealable(String sessionId, long seq, int version, String payload) {
        if (readsAsIs(version)) {
            return payload;
        }
        return encodeEvent(decodeEvent(sessionId, seq, version, payload));
    }

    /**
     * Whether a payload of record version {@code version} is read as it is (no upgrade step changes it),
     * so that it can stand in a segment's array unchanged ({@link #sealable}, {@link #decodeJoined}).
     */
    public static boolean readsAsIs(int version) {
        return version >= READ_AS_IS && version <= VERSION;
    }

    /**
     * Decodes event payloads (UTF-8 JSON, each of a version that {@link #readsAsIs}) of seqs
     * {@code firstSeq..lastSeq} as a segment is decoded: joined into one JSON array, one parse for all.
     *
     * @throws StorageException naming the session and the seqs when the joined array does not parse
     */
    public static List<Event> decodeJoined(String sessionId, long firstSeq, long lastSeq, List<byte[]> payloads) {
        int length = 1 + payloads.size(); // the brackets and the commas between
        for (byte[] p : payloads) {
            length += p.length;
        }
        byte[] array = new byte[Math.max(2, length)];
        int at = 0;
        array[at++] = '[';
        for (int i = 0; i < payloads.size(); i++) {
            if (i > 0) {
                array[at++] = ',';
            }
            byte[] p = payloads.get(i);
            System.arraycopy(p, 0, array, at, p.length);
            at += p.length;
        }
        array[at] = ']';
        return decodeSegment(sessionId, firstSeq, lastSeq, VERSION, array);
    }

    /** A sealed segment's stored form: the payloads (each {@link #sealable}) as one JSON array, in seq order. */
    public static String encodeSegment(List<String> payloads) {
        int length = 2 + payloads.size();
        for (String p : payloads) {
            length += p.length();
        }
        StringBuilder out = new StringBuilder(length).append('[');
        for (int i = 0; i < payloads.size(); i++) {
            out.append(i == 0 ? "" : ",").append(payloads.get(i));
        }
        return out.append(']').toString();
    }

    /**
     * Decodes a sealed segment (its UTF-8 bytes) into its events, in order: one parse for the whole
     * array, the read path of a cold load.
     *
     * @throws StorageException naming the session and the segment's seqs when it is corrupt or from a newer version
     */
    public static List<Event> decodeSegment(String sessionId, long firstSeq, long lastSeq, int version, byte[] json) {
        String where = "session '" + sessionId + "' segment seq " + firstSeq + ".." + lastSeq;
        if (version > VERSION) {
            throw new StorageException(where + " was written by a newer Threadline (schema " + version
                    + ", this one reads up to " + VERSION + "); upgrade Threadline to read it");
        }
        if (version < READ_AS_IS || json == null) {
            throw new StorageException(where + ": corrupt segment (" + (json == null ? "no payloads" : "version " + version
                    + " is older than any sealed segment") + ")");
        }
        try {
            List<Event> events = SEGMENT_READER.readValue(json);
            if (events == null || events.contains(null)) {
                throw new StorageException(where + ": corrupt segment (not an array of event objects)");
            }
            return events;
        } catch (StorageException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageException(where + ": corrupt segment (" + e.getMessage() + ")", e);
        }
    }

    /** {@link #decodeSegment(String, long, long, int, byte[])} of a segment the driver hands over as text. */
    public static List<Event> decodeSegment(String sessionId, long firstSeq, long lastSeq, int version, String json) {
        return decodeSegment(sessionId, firstSeq, lastSeq, version, json == null ? null : json.getBytes(StandardCharsets.UTF_8));
    }

    /** A pruned history's base (ADR 0045) as stored: the record's JSON, messages and all, in this version. */
    public static String encodeBase(dev.threadline.core.store.HistoryBase base) {
        return write(base);
    }

    /**
     * A stored base; unlike a snapshot it is not a cache (the events it stands for are gone), so an unreadable one
     * is a {@link dev.threadline.core.error.StorageException} naming the session.
     */
    public static dev.threadline.core.store.HistoryBase decodeBase(String sessionId, int version, String payload) {
        if (version < READ_AS_IS || version > VERSION) {
            throw new dev.threadline.core.error.StorageException("session '" + sessionId + "': its history base has record version "
                    + version + ", which this Threadline does not read");
        }
        try {
            return StoredForm.MAPPER.readValue(payload, dev.threadline.core.store.HistoryBase.class);
        } catch (Exception e) {
            throw new dev.threadline.core.error.StorageException("session '" + sessionId + "': its history base is unreadable ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    public static String encodeSnapshot(StateSnapshot snapshot) {
        return write(snapshot);
    }

    public static StateSnapshot decodeSnapshot(String sessionId, int version, String payload) {
        if (version < READ_AS_IS || version > VERSION) {
            return null; // snapshots are a cache: an old one is ignored and the journal replayed instead
        }
        try {
            return StoredForm.MAPPER.readValue(payload, StateSnapshot.class);
        } catch (Exception e) {
            return null; // a corrupt snapshot costs replay time, never correctness
        }
    }

    public static String encodeSession(SessionInfo info) {
        return Json.write(info);
    }

    /**
     * Decodes a session row. Session rows are read without their version, so the one difference
     * between versions 1 and 2 is recognised by its shape (a policy given by name) and upgraded.
     */
    public static SessionInfo decodeSession(String id, String payload) {
        try {
            JsonNode node = Json.mapper().readTree(payload);
            if (node instanceof ObjectNode obj && obj.get("config") instanceof ObjectNode config) {
                upgradeConfig(config);
            }
            return Json.mapper().treeToValue(node, SessionInfo.class);
        } catch (Exception e) {
            throw new StorageException("session '" + id + "': corrupt session row (" + e.getMessage() + ")", e);
        }
    }

    /** Version 1 to 2: the config in a {@code SessionCreated} event gets its policy object and new limits. */
    static ObjectNode upgradeV1Event(ObjectNode event) {
        if ("SessionCreated".equals(event.path("type").asText()) && event.path("session").get("config") instanceof ObjectNode c) {
            upgradeConfig(c);
        }
        return event;
    }

    /** Turns a version 1 session config into a version 2 one in place; a version 2 config is left as it is. */
    static void upgradeConfig(ObjectNode config) {
        JsonNode policy = config.get("contextPolicy");
        if (policy != null && policy.isTextual()) {
            config.set("contextPolicy", Json.tree(ContextPolicy.parse(policy.asText())));
        }
        if (!config.has("maxOutputTokens")) {
            config.put("maxOutputTokens", SessionConfig.DEFAULT_MAX_OUTPUT_TOKENS);
        }
        if (!config.has("turnTokenBudget")) {
            config.put("turnTokenBudget", 0L);
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
