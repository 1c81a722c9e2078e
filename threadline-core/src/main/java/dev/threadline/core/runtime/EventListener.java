package dev.threadline.core.runtime;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.State;
import java.util.List;

/**
 * Receives every committed step, after it is durable, in journal order per session. Called on a
 * delivery thread of the runtime's, after the commit and outside every lock: a slow listener delays only
 * the later deliveries of the same session, never a write, and may lag the command that committed (a
 * submit can return before its last steps were heard). A listener that throws is logged and never
 * affects the commit. Implementations may be called for different sessions at once, so they are
 * thread-safe.
 */
@FunctionalInterface
public interface EventListener {
    /** Called after {@code events} were appended to session {@code sessionId}, with the state they led to. */
    void onCommit(String sessionId, List<StoredEvent> events, State state);
}
