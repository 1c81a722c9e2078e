package dev.threadline.langgraph4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.serializer.StateSerializer;

/**
 * One journalled checkpoint: what changed since the checkpoint written before it. A channel whose list
 * value only grew is written as its new items; any other changed value is written whole; removed
 * channels by name. Values are serialized with the graph's own {@link StateSerializer} (base64 in the
 * journal). Immutable.
 *
 * @param id       the checkpoint's id
 * @param nodeId   the node it was taken at
 * @param next     the node that runs next
 * @param replaces the id of the checkpoint it replaces (an update of past state), or null for a new one
 * @param set      channels written whole
 * @param appended channels that grew, with their new items
 * @param removed  channels that are gone
 */
record Delta(String id, String nodeId, String next, String replaces, Map<String, Object> set, Map<String, List<Object>> appended,
             List<String> removed) {

    /** What {@code checkpoint} changes from {@code base}, the state of the checkpoint written before it. */
    static Delta of(Map<String, Object> base, Checkpoint checkpoint, String replaces) {
        Map<String, Object> set = new LinkedHashMap<>();
        Map<String, List<Object>> appended = new LinkedHashMap<>();
        List<String> removed = new ArrayList<>();
        Map<String, Object> state = checkpoint.getState();
        for (var e : state.entrySet()) {
            Object before = base.get(e.getKey());
            Object now = e.getValue();
            if (base.containsKey(e.getKey()) && (before == now || Objects.equals(before, now) && !(now instanceof List))) {
                continue;
            }
            if (before instanceof List<?> b && now instanceof List<?> n && isPrefix(b, n)) {
                if (n.size() > b.size()) {
                    appended.put(e.getKey(), new ArrayList<>(n.subList(b.size(), n.size())));
                }
                continue;
            }
            set.put(e.getKey(), now);
        }
        for (String k : base.keySet()) {
            if (!state.containsKey(k)) {
                removed.add(k);
            }
        }
        return new Delta(checkpoint.getId(), checkpoint.getNodeId(), checkpoint.getNextNodeId(), replaces, set, appended, removed);
    }

    private static boolean isPrefix(List<?> prefix, List<?> list) {
        if (prefix.size() > list.size()) {
            return false;
        }
        for (int i = 0; i < prefix.size(); i++) {
            Object a = prefix.get(i);
            Object b = list.get(i);
            if (a != b && !Objects.equals(a, b)) {
                return false;
            }
        }
        return true;
    }

    /** The state this delta makes from {@code base}: grown lists share their elements with the base's. */
    Map<String, Object> applyTo(Map<String, Object> base) {
        Map<String, Object> out = new HashMap<>(base);
        removed.forEach(out::remove);
        out.putAll(set);
        appended.forEach((k, items) -> {
            Object before = out.get(k);
            SharedList<Object> list = before instanceof List<?> l ? SharedList.of(cast(l)) : SharedList.of(List.of());
            out.put(k, list.plus(items));
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> cast(List<?> l) {
        return (List<Object>) l;
    }

    ObjectNode toJson(StateSerializer<?> serializer) {
        ObjectNode o = Json.object().put("id", id).put("node", nodeId).put("next", next);
        if (replaces != null) {
            o.put("replaces", replaces);
        }
        if (!set.isEmpty()) {
            o.put("set", bytes(serializer, set));
        }
        if (!appended.isEmpty()) {
            o.put("appended", bytes(serializer, new LinkedHashMap<>(appended)));
        }
        if (!removed.isEmpty()) {
            removed.forEach(o.putArray("removed")::add);
        }
        return o;
    }

    @SuppressWarnings("unchecked")
    static Delta fromJson(JsonNode o, StateSerializer<?> serializer) {
        List<String> removed = new ArrayList<>();
        if (o.has("removed")) {
            o.get("removed").forEach(n -> removed.add(n.asText()));
        }
        Map<String, Object> set = o.has("set") ? values(serializer, o.get("set").asText()) : Map.of();
        Map<String, List<Object>> appended = new LinkedHashMap<>();
        if (o.has("appended")) {
            values(serializer, o.get("appended").asText()).forEach((k, v) -> appended.put(k, (List<Object>) v));
        }
        return new Delta(o.get("id").asText(), text(o, "node"), text(o, "next"), text(o, "replaces"), set, appended, removed);
    }

    private static String text(JsonNode o, String field) {
        return o.hasNonNull(field) ? o.get(field).asText() : null;
    }

    private static String bytes(StateSerializer<?> serializer, Map<String, Object> values) {
        try {
            return Base64.getEncoder().encodeToString(serializer.dataToBytes(values));
        } catch (IOException e) {
            throw new UncheckedIOException("the graph's state serializer could not write a checkpoint", e);
        }
    }

    private static Map<String, Object> values(StateSerializer<?> serializer, String base64) {
        try {
            return serializer.dataFromBytes(Base64.getDecoder().decode(base64));
        } catch (IOException e) {
            throw new UncheckedIOException("the graph's state serializer could not read a checkpoint", e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a checkpoint holds a class this process does not have: " + e.getMessage(), e);
        }
    }
}
