package dev.threadline.core.internal.engine.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tool results a replay answers calls with: each recorded call (skill name and arguments) and what
 * it returned, in the order of the original session. A call the replayed model makes with the same
 * name and arguments gets the recorded result and runs nothing; repeated calls take the recorded
 * results in turn (the last one again once they are used up). A call with no record runs live only
 * when {@code liveTools} is on and its skill has no side effect; otherwise it is refused, so a replay
 * never repeats a side effect. What happened to each call is kept by its tool_use id. Thread-safe.
 */
public final class ToolAnswers {
    /** What a replayed call got. */
    public enum How {
        /** The recorded result of the same call; nothing ran. */
        RECORDED,
        /** No record matched; the skill ran (live tools on, no side effect). */
        LIVE,
        /** No record matched and the skill could not run here; the model got an error result. */
        NOT_RUN
    }

    /** A recorded call and its result as the model saw it. */
    public record Recorded(String name, JsonNode arguments, String content, boolean error) {}

    private final List<Recorded> recorded;
    private final boolean liveTools;
    private final Map<String, Integer> taken = new ConcurrentHashMap<>();
    private final Map<String, How> used = new ConcurrentHashMap<>();
    private final Map<String, Recorded> given = new ConcurrentHashMap<>();

    public ToolAnswers(List<Recorded> recorded, boolean liveTools) {
        this.recorded = List.copyOf(recorded);
        this.liveTools = liveTools;
    }

    /** Whether unrecorded calls of skills without side effects may run. */
    public boolean liveTools() {
        return liveTools;
    }

    /** The recorded result the call {@code toolUseId} gets, if any; each use takes the next of the same call's results. */
    public synchronized Optional<Recorded> take(String toolUseId, String name, JsonNode arguments) {
        List<Recorded> same = new ArrayList<>();
        for (Recorded r : recorded) {
            if (r.name().equals(name) && r.arguments().equals(arguments)) {
                same.add(r);
            }
        }
        if (same.isEmpty()) {
            return Optional.empty();
        }
        String key = name + '\u0000' + arguments;
        int i = taken.merge(key, 1, Integer::sum) - 1;
        Recorded r = same.get(Math.min(i, same.size() - 1));
        used.put(toolUseId, How.RECORDED);
        given.put(toolUseId, r);
        return Optional.of(r);
    }

    /** The recorded result {@link #take} gave the call {@code toolUseId}, if it gave one. */
    public Optional<Recorded> given(String toolUseId) {
        return Optional.ofNullable(given.get(toolUseId));
    }

    /** Notes what call {@code toolUseId} got when no record answered it. */
    public void note(String toolUseId, How how) {
        used.putIfAbsent(toolUseId, how);
    }

    /** What call {@code toolUseId} got, or null for a call this replay did not see. */
    public How how(String toolUseId) {
        return used.get(toolUseId);
    }
}
