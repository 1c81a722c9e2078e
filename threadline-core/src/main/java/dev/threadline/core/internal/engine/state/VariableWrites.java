package dev.threadline.core.internal.engine.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.event.Event;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SharedVariables;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns the variable writes of one tool result into what is recorded with it, computed from the
 * variables as they are <em>when the result is recorded</em> (inside the decider of
 * {@link StateManager#handleToolResult}, on the fresh state), not as the skill saw them when it
 * started. So the results of parallel tool calls merge: each result's writes apply, in the order the
 * results are recorded, to the state left by the ones recorded before, and two appends to one list
 * both stay.
 *
 * <p>The writes of a result apply in order (a set then an append to one variable append to the set
 * value). The journal records resulting values ({@code VariablesChanged.set} holds the whole new
 * array after an append), so folding the journal stays deterministic and needs no merge logic.
 * A result's writes are all or nothing: when one cannot apply (an append to a value that is not an
 * array), none is made and the call's recorded result becomes an error saying why.
 *
 * <p>Pure and stateless, so thread-safe; the maps passed in are only read.
 */
public final class VariableWrites {
    private VariableWrites() {}

    /**
     * What one result records.
     *
     * @param events      one VariablesChanged per journalled scope that changes (session, user, app)
     * @param tempSet     temp variables to set once the result is recorded
     * @param tempRemoved temp variables to remove once the result is recorded
     * @param problem     why the writes cannot apply (then there are no events), or null
     */
    public record Plan(List<Event.VariablesChanged> events, Map<String, JsonNode> tempSet, List<String> tempRemoved,
                String problem) {
        static final Plan NONE = new Plan(List.of(), Map.of(), List.of(), null);

        public Plan {
            events = List.copyOf(events);
            tempSet = Map.copyOf(tempSet);
            tempRemoved = List.copyOf(tempRemoved);
        }

        /**
         * The events of the step that records {@code result}: the result and its variable changes,
         * or, when the writes cannot apply, an error result for the same call saying why.
         */
        public List<Event> recording(Event.ToolCallEnded result) {
            if (problem != null) {
                return List.of(new Event.ToolCallCompleted(result.toolUseId(),
                        "the call's result could not be recorded: " + problem + "; none of its variable changes were made", true));
            }
            List<Event> out = new ArrayList<>(1 + events.size());
            out.add(result);
            out.addAll(events);
            return out;
        }

        /** Applies the temp writes to the turn's scratch {@code temp} (call once the result is recorded). */
        public void applyTemp(Map<String, JsonNode> temp) {
            tempRemoved.forEach(temp::remove);
            temp.putAll(tempSet);
        }
    }

    /**
     * Plans {@code writes} against the current values.
     *
     * @param session the session variables of the state the result is recorded on
     * @param shared  the current user or app variables (asked at most once per scope, only when written)
     * @param temp    the turn's temp variables as they are now
     * @throws dev.threadline.core.error.InvalidInputException if {@code writes} is null
     */
    public static Plan plan(List<VariableWrite> writes, Map<String, JsonNode> session,
                     Function<VariableScope, Map<String, JsonNode>> shared, Map<String, JsonNode> temp) {
        if (Require.nonNull(writes, "writes").isEmpty()) {
            return Plan.NONE;
        }
        Map<VariableScope, Map<String, JsonNode>> before = new EnumMap<>(VariableScope.class);
        before.put(VariableScope.SESSION, session);
        before.put(VariableScope.TEMP, temp);
        Map<VariableScope, Map<String, JsonNode>> after = new EnumMap<>(VariableScope.class); // null value: removed
        for (VariableWrite w : writes) {
            Map<String, JsonNode> changed = after.computeIfAbsent(w.scope(), k -> new LinkedHashMap<>());
            JsonNode current = changed.containsKey(w.name()) ? changed.get(w.name())
                    : before.computeIfAbsent(w.scope(), shared).get(w.name());
            try {
                changed.put(w.name(), w.applyTo(current));
            } catch (IllegalArgumentException e) {
                return new Plan(List.of(), Map.of(), List.of(), e.getMessage());
            }
        }
        List<Event.VariablesChanged> events = new ArrayList<>();
        Map<String, JsonNode> tempSet = Map.of();
        List<String> tempRemoved = List.of();
        for (Map.Entry<VariableScope, Map<String, JsonNode>> e : after.entrySet()) {
            Map<String, JsonNode> set = new LinkedHashMap<>();
            List<String> removed = new ArrayList<>();
            e.getValue().forEach((name, value) -> {
                if (value == null) {
                    removed.add(name);
                } else {
                    set.put(name, value);
                }
            });
            if (e.getKey() == VariableScope.TEMP) {
                tempSet = set;
                tempRemoved = removed;
            } else {
                events.add(new Event.VariablesChanged(e.getKey(), set, removed));
            }
        }
        return new Plan(events, tempSet, tempRemoved, null);
    }

    /** The current user and app variables of a session's user and tenant, read from the store. */
    public static Function<VariableScope, Map<String, JsonNode>> sharedIn(SharedVariables store, Supplier<SessionInfo> session) {
        return scope -> {
            SessionInfo info = session.get();
            String key = switch (scope) {
                case USER -> ScopedWrite.userKey(info.tenant(), info.userId());
                case APP -> ScopedWrite.appKey(info.tenant());
                default -> throw new IllegalArgumentException("the " + scope.wireName() + " scope is not stored apart");
            };
            return store.variables(scope, key);
        };
    }

    /**
     * The shared-variable writes a step's {@code events} carry (user and app {@code VariablesChanged},
     * and shared-variable edits of a {@code StateEdited}), keyed by the session's user and tenant: what an
     * append applies with them. {@code session} is asked at most once, only when a shared scope is written.
     */
    public static List<ScopedWrite> stored(List<Event> events, Supplier<SessionInfo> session) {
        List<ScopedWrite> writes = new ArrayList<>();
        SessionInfo[] info = new SessionInfo[1];
        Function<VariableScope, String> key = scope -> {
            if (info[0] == null) {
                info[0] = session.get();
            }
            return scope == VariableScope.USER ? ScopedWrite.userKey(info[0].tenant(), info[0].userId()) : ScopedWrite.appKey(info[0].tenant());
        };
        for (Event e : events) {
            if (e instanceof Event.VariablesChanged v && v.scope() != VariableScope.SESSION) {
                writes.add(new ScopedWrite(v.scope(), key.apply(v.scope()), v.set(), v.removed()));
            } else if (e instanceof Event.StateEdited edited) {
                for (dev.threadline.core.state.Edit edit : edited.edits()) {
                    switch (edit) {
                        case dev.threadline.core.state.Edit.SetVariable sv when sv.scope() != VariableScope.SESSION ->
                                writes.add(new ScopedWrite(sv.scope(), key.apply(sv.scope()), Map.of(sv.name(), sv.value()), List.of()));
                        case dev.threadline.core.state.Edit.RemoveVariable rv when rv.scope() != VariableScope.SESSION ->
                                writes.add(new ScopedWrite(rv.scope(), key.apply(rv.scope()), Map.of(), List.of(rv.name())));
                        default -> { } // session variables and messages fold into State
                    }
                }
            }
        }
        return writes;
    }
}
