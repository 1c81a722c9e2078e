package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.engine.state.VariableWrites;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.ScopedWrite;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which step's write of each shared (user or app) variable a copy applies: only the last one, by the
 * time of its event (then session id, then seq), among all the sessions copied. Replaying every step's
 * writes session after session would leave a variable that sessions of one user wrote in turn with the
 * value of the session copied last; applying only the last write leaves it as the source has it.
 * {@link #see} every event of the copy first, then {@link #of} gives each step's writes. Used by one thread.
 */
final class SharedWrites {
    private record Mark(Instant time, String sessionId, long seq) {}

    private static final Comparator<Mark> ORDER = Comparator.comparing(Mark::time).thenComparing(Mark::sessionId)
            .thenComparingLong(Mark::seq);

    private final Map<String, Mark> last = new HashMap<>();

    /** Notes the shared writes of {@code e}, an own event of session {@code info}. */
    void see(SessionInfo info, StoredEvent e) {
        if (!mayWrite(e)) {
            return;
        }
        Mark m = new Mark(e.time(), e.sessionId(), e.seq());
        for (ScopedWrite w : VariableWrites.stored(List.of(e.event()), () -> info)) {
            w.set().keySet().forEach(name -> last.merge(name(w, name), m, (a, b) -> ORDER.compare(a, b) >= 0 ? a : b));
            w.removed().forEach(name -> last.merge(name(w, name), m, (a, b) -> ORDER.compare(a, b) >= 0 ? a : b));
        }
    }

    /** The writes of {@code step} (own events of {@code info}) that are the last of their variable. */
    List<ScopedWrite> of(SessionInfo info, List<StoredEvent> step) {
        List<ScopedWrite> out = new ArrayList<>();
        for (StoredEvent e : step) {
            if (!mayWrite(e)) {
                continue;
            }
            Mark m = new Mark(e.time(), e.sessionId(), e.seq());
            for (ScopedWrite w : VariableWrites.stored(List.of(e.event()), () -> info)) {
                Map<String, JsonNode> set = new LinkedHashMap<>();
                w.set().forEach((name, value) -> {
                    if (m.equals(last.get(name(w, name)))) {
                        set.put(name, value);
                    }
                });
                List<String> removed = w.removed().stream().filter(name -> m.equals(last.get(name(w, name)))).toList();
                if (!set.isEmpty() || !removed.isEmpty()) {
                    out.add(new ScopedWrite(w.scope(), w.key(), set, removed));
                }
            }
        }
        return out;
    }

    /** Only these events carry shared writes ({@link VariableWrites#stored}). */
    private static boolean mayWrite(StoredEvent e) {
        return e.event() instanceof Event.VariablesChanged || e.event() instanceof Event.StateEdited;
    }

    private static String name(ScopedWrite w, String name) {
        return w.scope() + "\0" + w.key() + "\0" + name;
    }
}
