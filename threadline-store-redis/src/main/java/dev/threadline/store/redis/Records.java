package dev.threadline.store.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.json.Json;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The stored forms of command records, shared writes and instants other than events. Stateless. */
final class Records {
    private Records() {}

    /**
     * A command record in its session's {@code cmd} hash (the session and id are the key and field): JSON
     * {@code {"f": fingerprint, "s": seq, "r": result}}; with {@code sealer} on and a result, the result sealed and
     * then {@code {"f", "s"}} in clear ({@link Sealer#sealWithTail}).
     */
    static String encodeCommand(CommandRecord c, Sealer sealer) {
        ObjectNode o = Json.object();
        o.put("f", c.fingerprint());
        o.put("s", c.seq());
        if (c.result() != null) {
            if (sealer.on()) {
                return sealer.sealWithTail(c.result(), o.toString(), commandPlace(c.session(), c.commandId()));
            }
            o.put("r", c.result());
        }
        return o.toString();
    }

    /** A record {@link #encodeCommand} made, sealed or not; a corrupt one is a {@link StorageException} naming it. */
    static CommandRecord decodeCommand(SessionKey session, String commandId, String stored, Sealer sealer) {
        String result = null;
        if (Sealer.sealed(stored)) {
            result = sealer.openHead(stored, commandPlace(session, commandId));
            stored = Sealer.tail(stored);
        }
        try {
            JsonNode o = Json.mapper().readTree(stored);
            return new CommandRecord(session, commandId, o.get("f").asText(), o.get("s").asLong(),
                    result != null ? result : o.hasNonNull("r") ? o.get("r").asText() : null);
        } catch (Exception e) {
            throw new StorageException("session '" + session.id() + "': corrupt record of command '" + commandId + "'", e);
        }
    }

    private static Sealer.Place commandPlace(SessionKey session, String commandId) {
        return new Sealer.Place("command", session.tenant(), session.id(), commandId);
    }

    /** The place of a session's pending shared writes (they hold variable values). */
    static Sealer.Place writesPlace(SessionKey session) {
        return new Sealer.Place("writes", session.tenant(), session.id(), "");
    }

    /** The place of variable {@code name} of a scope of shared variables, sealed under the scope key's tenant. */
    static Sealer.Place variablePlace(VariableScope scope, String key, String name) {
        int slash = key.indexOf('/'); // an app scope's key is the tenant, a user scope's tenant/user
        return new Sealer.Place("variable", slash < 0 ? key : key.substring(0, slash), scope.wireName() + ":" + key, name);
    }

    /** An append's shared writes as recorded on its session until they are applied. */
    static String encodeWrites(List<ScopedWrite> writes) {
        ArrayNode a = Json.mapper().createArrayNode();
        for (ScopedWrite w : writes) {
            ObjectNode o = a.addObject();
            o.put("scope", w.scope().wireName());
            o.put("key", w.key());
            ObjectNode set = o.putObject("set");
            w.set().forEach(set::set);
            ArrayNode removed = o.putArray("removed");
            w.removed().forEach(removed::add);
        }
        return a.toString();
    }

    static List<ScopedWrite> decodeWrites(String sessionId, String stored) {
        try {
            List<ScopedWrite> out = new ArrayList<>();
            for (JsonNode o : Json.mapper().readTree(stored)) {
                Map<String, JsonNode> set = new LinkedHashMap<>();
                o.get("set").properties().forEach(f -> set.put(f.getKey(), f.getValue()));
                List<String> removed = new ArrayList<>();
                o.get("removed").forEach(n -> removed.add(n.asText()));
                out.add(new ScopedWrite(VariableScope.parse(o.get("scope").asText()), o.get("key").asText(), set, removed));
            }
            return out;
        } catch (Exception e) {
            throw new StorageException("session '" + sessionId + "': corrupt record of pending shared writes", e);
        }
    }

    /** A scope's shared variables as stored (name to JSON); a corrupt one is a {@link StorageException} naming it. */
    static Map<String, JsonNode> decodeVariables(VariableScope scope, String key, Map<String, String> stored, Sealer sealer) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        stored.forEach((name, json) -> {
            String text = sealer.open(json, variablePlace(scope, key, name));
            try {
                out.put(name, Json.parse(text, name));
            } catch (dev.threadline.core.error.InvalidInputException e) {
                throw new StorageException("the " + scope.wireName() + " variables of '" + key + "': variable '" + name
                        + "' is stored corrupt (" + EventEntry.firstLine(e.getMessage()) + ")", e);
            }
        });
        return Map.copyOf(out);
    }

    /** A wrapped data key's stored value: its KEK id, the wrapped bytes in base64 and when it was added. */
    static String encodeDataKey(dev.threadline.core.store.WrappedDataKey key, long createdMillis) {
        ObjectNode o = Json.object();
        o.put("kek", key.kekId());
        o.put("wrapped", java.util.Base64.getEncoder().encodeToString(key.wrapped()));
        o.put("created", createdMillis);
        return o.toString();
    }

    /** A tenant's data keys as stored (number to {@link #encodeDataKey}), by number; a corrupt one is a {@link StorageException}. */
    static List<dev.threadline.core.store.WrappedDataKey> decodeDataKeys(String tenant, Map<String, String> stored) {
        List<dev.threadline.core.store.WrappedDataKey> out = new ArrayList<>();
        stored.forEach((number, json) -> {
            try {
                JsonNode o = Json.mapper().readTree(json);
                out.add(new dev.threadline.core.store.WrappedDataKey(tenant, Integer.parseInt(number), o.get("kek").asText(),
                        java.util.Base64.getDecoder().decode(o.get("wrapped").asText())));
            } catch (Exception e) {
                throw new StorageException("tenant '" + tenant + "': data key '" + number + "' is stored corrupt", e);
            }
        });
        out.sort(java.util.Comparator.comparingInt(dev.threadline.core.store.WrappedDataKey::number));
        return out;
    }

    /** An instant as Lua compares it: whole seconds and nanoseconds (a double cannot hold epoch nanos exactly). */
    static String[] secNanos(Instant t) {
        return new String[] {Long.toString(t.getEpochSecond()), Integer.toString(t.getNano())};
    }

    static Instant instant(String seconds, String nanos) {
        return Instant.ofEpochSecond(Long.parseLong(seconds), Long.parseLong(nanos));
    }

    /** The index score of an update time: minus its epoch millisecond, so ascending order is newest first. */
    static double score(Instant updated) {
        return -updated.toEpochMilli();
    }
}
