package dev.threadline.adk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.adk.sessions.State;
import dev.threadline.core.event.Event;
import dev.threadline.core.state.VariableScope;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An ADK state delta as Threadline variables, the way ADK 1.8.0's {@code InMemorySessionService} keeps
 * state: every key but {@code temp:} ones is the session's own (a session variable under its full name,
 * prefix included); an appended event's {@code app:} and {@code user:} keys are also shared, in
 * Threadline's app and user scopes (without the prefix), while a new session's initial state is not.
 * {@code temp:} keys are dropped (never journalled). Reading, the shared values win over the session's
 * own. Values become JSON; {@link State#REMOVED} becomes a removal. Stateless; thread-safe.
 */
final class StateDelta {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private StateDelta() {}

    /**
     * The {@code VariablesChanged} events for {@code delta} (none for an empty delta or one of only temp
     * keys); {@code share}: also write its {@code app:} and {@code user:} keys to the shared scopes, as an
     * appended event does (a new session's initial state does not).
     */
    static List<Event> events(Map<String, Object> delta, Map<String, JsonNode> extraSession, boolean share) {
        Map<VariableScope, Map<String, JsonNode>> set = new EnumMap<>(VariableScope.class);
        Map<VariableScope, List<String>> removed = new EnumMap<>(VariableScope.class);
        set.computeIfAbsent(VariableScope.SESSION, k -> new LinkedHashMap<>()).putAll(extraSession);
        if (delta != null) {
            delta.forEach((key, value) -> {
                VariableScope scope = scopeOf(key);
                if (scope == VariableScope.TEMP) {
                    return;
                }
                boolean removal = value == State.REMOVED || value == null;
                JsonNode json = removal ? null : MAPPER.valueToTree(value);
                put(set, removed, VariableScope.SESSION, key, json);
                if (share && scope != VariableScope.SESSION) {
                    put(set, removed, scope, unprefixed(key, scope), json);
                }
            });
        }
        List<Event> events = new ArrayList<>();
        for (VariableScope scope : List.of(VariableScope.SESSION, VariableScope.USER, VariableScope.APP)) {
            Map<String, JsonNode> s = set.getOrDefault(scope, Map.of());
            List<String> r = removed.getOrDefault(scope, List.of());
            if (!s.isEmpty() || !r.isEmpty()) {
                events.add(new Event.VariablesChanged(scope, s, r));
            }
        }
        return events;
    }

    private static void put(Map<VariableScope, Map<String, JsonNode>> set, Map<VariableScope, List<String>> removed,
                            VariableScope scope, String name, JsonNode value) {
        if (value == null) {
            removed.computeIfAbsent(scope, k -> new ArrayList<>()).add(name);
        } else {
            set.computeIfAbsent(scope, k -> new LinkedHashMap<>()).put(name, value);
        }
    }

    /** The scope a state key belongs to, by its prefix. */
    static VariableScope scopeOf(String key) {
        if (key.startsWith(State.APP_PREFIX)) {
            return VariableScope.APP;
        }
        if (key.startsWith(State.USER_PREFIX)) {
            return VariableScope.USER;
        }
        if (key.startsWith(State.TEMP_PREFIX)) {
            return VariableScope.TEMP;
        }
        return VariableScope.SESSION;
    }

    private static String unprefixed(String key, VariableScope scope) {
        return switch (scope) {
            case APP -> key.substring(State.APP_PREFIX.length());
            case USER -> key.substring(State.USER_PREFIX.length());
            default -> key;
        };
    }

    /**
     * ADK's view of the variables: session ones as they are (a session's own {@code app:}/{@code user:} keys
     * included), then the shared user and app ones with their prefixes over them, as ADK's in-memory service
     * merges its app and user state into a session it reads.
     */
    static Map<String, Object> adkState(Map<String, JsonNode> session, Map<String, JsonNode> user, Map<String, JsonNode> app) {
        Map<String, Object> state = new HashMap<>();
        session.forEach((k, v) -> {
            if (!k.equals(SessionVars.EVENT) && !v.isNull()) {
                state.put(k, value(v));
            }
        });
        user.forEach((k, v) -> {
            if (!v.isNull()) {
                state.put(State.USER_PREFIX + k, value(v));
            }
        });
        app.forEach((k, v) -> {
            if (!v.isNull()) {
                state.put(State.APP_PREFIX + k, value(v));
            }
        });
        return state;
    }

    /** A JSON value as the plain Java value ADK state holds (maps, lists, strings, numbers, booleans). */
    static Object value(JsonNode node) {
        return MAPPER.convertValue(node, Object.class);
    }
}
