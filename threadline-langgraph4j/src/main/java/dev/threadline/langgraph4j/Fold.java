package dev.threadline.langgraph4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.serializer.StateSerializer;

/**
 * A thread's checkpoints as of journal position {@code seq}: folded from the journalled deltas, newest
 * first, with the state of the checkpoint written last (the base of the next delta). Immutable; a
 * newer fold is made from an older one and the events after it.
 *
 * @param seq         the journal position folded up to
 * @param checkpoints newest first
 * @param lastWritten the state of the checkpoint written last (empty after a release)
 */
record Fold(long seq, List<Checkpoint> checkpoints, Map<String, Object> lastWritten) {
    static final Fold EMPTY = new Fold(0, List.of(), Map.of());

    /** This fold with {@code events} (journal order, after {@link #seq}) applied. */
    Fold plus(List<StoredEvent> events, StateSerializer<?> serializer) {
        if (events.isEmpty()) {
            return this;
        }
        List<Checkpoint> list = new ArrayList<>(checkpoints);
        Map<String, Object> last = lastWritten;
        long at = seq;
        for (StoredEvent e : events) {
            at = e.seq();
            if (!(e.event() instanceof Event.VariablesChanged v)) {
                continue;
            }
            if (v.removed().contains(Vars.CHECKPOINT)) {
                list.clear(); // released
                last = Map.of();
            }
            JsonNode json = v.set().get(Vars.CHECKPOINT);
            if (json == null) {
                continue;
            }
            Delta d = Delta.fromJson(json, serializer);
            last = d.applyTo(last);
            Checkpoint c = Checkpoint.builder().id(d.id()).state(last).nodeId(d.nodeId()).nextNodeId(d.next()).build();
            int replaced = d.replaces() == null ? -1 : indexOf(list, d.replaces());
            if (replaced >= 0) {
                list.set(replaced, c);
            } else {
                list.addFirst(c);
            }
        }
        return new Fold(at, Collections.unmodifiableList(list), last);
    }

    private static int indexOf(List<Checkpoint> list, String id) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).getId().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
