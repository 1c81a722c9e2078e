package dev.threadline.langgraph4j;

import dev.threadline.core.event.Event;
import dev.threadline.core.runtime.Decider;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.state.VariableScope;
import java.util.List;
import java.util.Map;

/**
 * The one place this adapter writes to a session: each checkpoint is one {@link Session#recordStep} step
 * holding one {@code VariablesChanged} (re-decided on a conflict, so concurrent savers on one thread
 * both land, in journal order). Kept in one class so it can move to core's typed edit API. Thread-safe.
 */
final class SaverWriter {
    private SaverWriter() {}

    /** Journals the checkpoint {@code delta} decides from the state (one variable write). */
    static void write(Session session, Decider delta) {
        session.recordStep(delta);
    }

    /** Records a release: the checkpoint variable is removed (nothing when it is absent). */
    static void release(Session session) {
        session.recordStep(s -> s.variables().containsKey(Vars.CHECKPOINT)
                ? List.of(new Event.VariablesChanged(VariableScope.SESSION, Map.of(), List.of(Vars.CHECKPOINT)))
                : List.of());
    }
}
