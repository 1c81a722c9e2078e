package dev.threadline.adk;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.State;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.state.VariableScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ADK events to and from the journal: an event is stored as ADK's own JSON in the session variable
 * {@link SessionVars#EVENT} of its step, its state delta without {@code temp:} keys. Stateless;
 * thread-safe.
 */
final class AdkEvents {
    /** How ADK writes {@link State#REMOVED} in JSON. */
    private static final String REMOVED_JSON = "__ADK_SENTINEL_REMOVED__";

    private AdkEvents() {}

    /** The event as it is journalled: ADK's JSON with the temp keys left out of its state delta. */
    static JsonNode toJournal(Event event) {
        Event stored = event;
        EventActions actions = event.actions();
        if (actions != null && actions.stateDelta() != null
                && actions.stateDelta().keySet().stream().anyMatch(k -> k.startsWith(State.TEMP_PREFIX))) {
            ConcurrentHashMap<String, Object> kept = new ConcurrentHashMap<>();
            actions.stateDelta().forEach((k, v) -> {
                if (!k.startsWith(State.TEMP_PREFIX)) {
                    kept.put(k, v);
                }
            });
            stored = event.toBuilder().actions(actions.toBuilder().stateDelta(kept).build()).build();
        }
        return Json.parse(stored.toJson(), "adk event");
    }

    /** The ADK events of a journal, oldest first. */
    static List<Event> fromJournal(List<StoredEvent> journal) {
        List<Event> events = new ArrayList<>();
        for (StoredEvent e : journal) {
            if (e.event() instanceof dev.threadline.core.event.Event.VariablesChanged v
                    && v.scope() == VariableScope.SESSION && v.set().containsKey(SessionVars.EVENT)) {
                events.add(fromJson(v.set().get(SessionVars.EVENT)));
            }
        }
        return events;
    }

    private static Event fromJson(JsonNode json) {
        Event event = Event.fromJson(json.toString());
        EventActions actions = event.actions();
        if (actions != null && actions.stateDelta() != null) {
            for (Map.Entry<String, Object> d : actions.stateDelta().entrySet()) {
                if (REMOVED_JSON.equals(d.getValue())) {
                    d.setValue(State.REMOVED);
                }
            }
        }
        return event;
    }
}
