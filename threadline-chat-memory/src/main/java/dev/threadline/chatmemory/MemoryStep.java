package dev.threadline.chatmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * The events of one step that moves a memory's view (see {@link MemoryLayout}), decided from one state: the
 * messages it appends, then one {@code VariablesChanged} with the view's variables that changed, then, when
 * messages were appended, a {@code TurnCompleted} with the layout's reason, so the session is idle after every
 * write. An adapter records the events with {@code Session.recordStep}, which re-decides on a conflict, so
 * concurrent writers never lose each other's messages. Not thread-safe: one instance per decision.
 */
public final class MemoryStep {
    private final State state;
    private final MemoryLayout layout;
    private final List<Event> events = new ArrayList<>();
    private final Map<String, JsonNode> vars = new LinkedHashMap<>(); // a null value removes
    private boolean messages;

    /**
     * A step on {@code state}, for the memory laid out as {@code layout}.
     *
     * @throws NullPointerException when an argument is null
     */
    public MemoryStep(State state, MemoryLayout layout) {
        this.state = Objects.requireNonNull(state, "state");
        this.layout = Objects.requireNonNull(layout, "layout");
    }

    /**
     * The smallest {@code k} such that {@code current} from its {@code k}-th element is a prefix of {@code wanted},
     * or -1 when there is none: 0 means the list extends the view (an append), a larger {@code k} that a window
     * evicted the view's first {@code k} elements (a slide), -1 that the list is something else (a rewrite). An
     * element matches itself (the same object) without asking {@code same}: lists that share their objects compare
     * at the cost of a reference check per element.
     *
     * @param same whether the view's element at index {@code i} (first argument) matches the wanted element (second)
     * @param <T>  the element type
     * @throws NullPointerException when an argument is null
     */
    public static <T> int slide(List<T> current, List<T> wanted, Matcher<T> same) {
        int n = current.size();
        for (int k = 0; k < n; k++) {
            int len = n - k;
            if (len > wanted.size()) {
                continue;
            }
            boolean ok = true;
            for (int i = 0; i < len && ok; i++) {
                T c = current.get(k + i);
                T w = wanted.get(i);
                ok = c == w || same.matches(k + i, c, w);
            }
            if (ok) {
                return k;
            }
        }
        return -1;
    }

    /**
     * Whether an element of a memory's view matches a wanted one. Implementations should be pure functions,
     * so thread-safe.
     *
     * @param <T> the element type
     */
    @FunctionalInterface
    public interface Matcher<T> {
        /** Whether the view's element {@code index}, {@code current}, matches {@code wanted}. */
        boolean matches(int index, T current, T wanted);

        /** Elements match when they are equal. */
        static <T> Matcher<T> equal() {
            return (index, current, wanted) -> current.equals(wanted);
        }

        /** A matcher from a predicate on the two elements. */
        static <T> Matcher<T> of(BiPredicate<T, T> same) {
            return (index, current, wanted) -> same.test(current, wanted);
        }
    }

    /** The state this step is decided on. */
    public State state() {
        return state;
    }

    /**
     * Adds an event that is no message (a {@code Cleared}, a tool result).
     *
     * @throws NullPointerException when the event is null
     */
    public MemoryStep add(Event event) {
        events.add(Objects.requireNonNull(event, "event"));
        return this;
    }

    /**
     * Adds an event that appends a message: the step then ends with a {@code TurnCompleted}.
     *
     * @throws NullPointerException when the event is null
     */
    public MemoryStep addMessage(Event event) {
        add(event);
        messages = true;
        return this;
    }

    /** Marks that this step appends messages (through events added with {@link #add}). */
    public MemoryStep appendsMessages() {
        messages = true;
        return this;
    }

    /**
     * Sets a session variable ({@code value} null: removes it).
     *
     * @throws NullPointerException when the name is null
     */
    public MemoryStep set(String name, JsonNode value) {
        vars.put(Objects.requireNonNull(name, "name"), value);
        return this;
    }

    /**
     * Removes a session variable unless this step already set it.
     *
     * @throws NullPointerException when the name is null
     */
    public MemoryStep removeUnlessSet(String name) {
        vars.putIfAbsent(Objects.requireNonNull(name, "name"), null);
        return this;
    }

    /**
     * Writes the view's start and its system messages, each only when it changed. System message {@code i} is
     * placed before the wanted conversation message {@code before.get(i)}, whose transcript index is
     * {@code at.get(before.get(i))}, or at {@code end} when it comes after the last one.
     *
     * @param start  the transcript index the view now starts at
     * @param before for each system message, the index of the conversation message it precedes
     * @param texts  the system messages' texts
     * @param at     the transcript index of each conversation message of the wanted list
     * @param end    the transcript index after the view's last message
     * @throws NullPointerException when a list is null
     */
    public MemoryStep place(int start, List<Integer> before, List<String> texts, List<Integer> at, int end) {
        ArrayNode systems = Json.mapper().createArrayNode();
        for (int i = 0; i < texts.size(); i++) {
            int b = before.get(i);
            int abs = b < at.size() ? at.get(b) : end;
            systems.addObject().put("at", abs - start).put("text", texts.get(i));
        }
        JsonNode oldSystems = state.variables().get(layout.systemVariable());
        if (systems.isEmpty() ? oldSystems != null : !systems.equals(oldSystems)) {
            vars.put(layout.systemVariable(), systems.isEmpty() ? null : systems);
        }
        moveStart(start);
        return this;
    }

    /** Writes the view's start, when it changed. */
    public MemoryStep moveStart(int start) {
        JsonNode oldStart = state.variables().get(layout.startVariable());
        if (oldStart == null || oldStart.asInt() != start) {
            vars.put(layout.startVariable(), Json.mapper().getNodeFactory().numberNode(start));
        }
        return this;
    }

    /**
     * The events that empty the view (none when {@code empty}): a {@code Cleared} when the transcript has
     * messages in context, the pending group dropped, no system messages, the start at the transcript's end.
     * The history stays in the journal.
     *
     * @param empty        whether the view is empty already
     * @param pendingCalls the number of calls of the view's pending group (0: none)
     */
    public List<Event> clear(boolean empty, int pendingCalls) {
        if (empty) {
            return List.of();
        }
        if (state.contextStart() < state.messages().size()) {
            add(new Event.Cleared());
        }
        dropPending(pendingCalls);
        set(layout.systemVariable(), null);
        set(layout.startVariable(), Json.mapper().getNodeFactory().numberNode(state.messages().size()));
        return finish();
    }

    /**
     * Removes the pending group's variables (unless this step set them): its assistant message and the results
     * recorded for its {@code calls} calls.
     */
    public MemoryStep dropPending(int calls) {
        if (!state.variables().containsKey(layout.pendingVariable())) {
            return this;
        }
        removeUnlessSet(layout.pendingVariable());
        for (int c = 0; c < calls; c++) {
            if (state.variables().containsKey(layout.pendingResultVariable(c))) {
                removeUnlessSet(layout.pendingResultVariable(c));
            }
        }
        return this;
    }

    /** The step's events: those added, then the variables that change, then the {@code TurnCompleted}, if any. */
    public List<Event> finish() {
        Map<String, JsonNode> set = new HashMap<>();
        List<String> removed = new ArrayList<>();
        vars.forEach((name, value) -> {
            if (value != null) {
                set.put(name, value);
            } else if (state.variables().containsKey(name)) {
                removed.add(name);
            }
        });
        List<Event> out = new ArrayList<>(events);
        if (!set.isEmpty() || !removed.isEmpty()) {
            out.add(new Event.VariablesChanged(VariableScope.SESSION, set, removed));
        }
        if (messages) {
            out.add(new Event.TurnCompleted(layout.turnReason()));
        }
        return out;
    }
}
