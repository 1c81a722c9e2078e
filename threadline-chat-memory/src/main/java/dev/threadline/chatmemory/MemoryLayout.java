package dev.threadline.chatmemory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Where a chat memory's <em>view</em> of a session lives. The view is the session's transcript from a start
 * index, then (for a tool-call group still waiting for results) a pending assistant message, with the memory's
 * system messages placed among them. All of it is kept in session-scoped variables named after the adapter, so
 * it is in the journal and in every checkpoint:
 * <ul>
 *   <li>{@code <name>.start}: the transcript index the view starts at (absent: the session's context start);</li>
 *   <li>{@code <name>.system}: {@code [{"at": offset from the start, "text": ...}]}, each system message placed
 *       before the transcript message at that offset;</li>
 *   <li>{@code <name>.pending} and {@code <name>.pending.result.<n>}: the pending group's assistant message
 *       (stored tool ids) and the results recorded for it so far.</li>
 * </ul>
 * Immutable and thread-safe.
 *
 * @param name the adapter's name, e.g. {@code langchain4j}: the prefix of its variables and of its steps' reason
 */
public record MemoryLayout(String name) {

    /**
     * Checks the name.
     *
     * @throws IllegalArgumentException when the name is null or blank
     */
    public MemoryLayout {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a chat memory's name must not be blank");
        }
    }

    /** The variable holding the transcript index the view starts at. */
    public String startVariable() {
        return name + ".start";
    }

    /** The variable holding the system messages and their places. */
    public String systemVariable() {
        return name + ".system";
    }

    /** The variable holding the pending group's assistant message. */
    public String pendingVariable() {
        return name + ".pending";
    }

    /** The variable holding the recorded result of call {@code call} (by position) of the pending group. */
    public String pendingResultVariable(int call) {
        return name + ".pending.result." + call;
    }

    /** The reason of the {@code TurnCompleted} that ends each step appending messages. */
    public String turnReason() {
        return name + " chat memory update";
    }

    /**
     * The transcript index the view of {@code state} starts at.
     *
     * @throws NullPointerException when the state is null
     */
    public int start(State state) {
        JsonNode start = state.variables().get(startVariable());
        return start != null ? start.asInt() : state.contextStart();
    }

    /**
     * The system messages of the view of {@code state}, in order.
     *
     * @throws NullPointerException when the state is null
     */
    public List<SystemPlacement> systems(State state) {
        List<SystemPlacement> out = new ArrayList<>();
        JsonNode sys = state.variables().get(systemVariable());
        if (sys != null) {
            for (JsonNode p : sys) {
                out.add(new SystemPlacement(p.get("at").asInt(), p.get("text").asText()));
            }
        }
        return List.copyOf(out);
    }

    /**
     * The view's entries in order: item {@code i} (at transcript index {@code at.get(i)}) after the system
     * messages placed at or before it, and the system messages placed after the last item at the end.
     *
     * @param start   the transcript index the view starts at
     * @param at      the transcript index of each item
     * @param systems the system messages, in order
     * @param item    the entry of item {@code i}
     * @param system  the entry of a system message's text
     * @param <T>     the framework's entry type
     * @throws NullPointerException when an argument is null
     */
    public static <T> List<T> interleave(int start, List<Integer> at, List<SystemPlacement> systems, IntFunction<T> item,
            Function<String, T> system) {
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(system, "system");
        List<T> out = new ArrayList<>(at.size() + systems.size());
        int s = 0;
        for (int i = 0; i < at.size(); i++) {
            while (s < systems.size() && start + systems.get(s).offset() <= at.get(i)) {
                out.add(system.apply(systems.get(s++).text()));
            }
            out.add(item.apply(i));
        }
        while (s < systems.size()) {
            out.add(system.apply(systems.get(s++).text()));
        }
        return out;
    }
}
