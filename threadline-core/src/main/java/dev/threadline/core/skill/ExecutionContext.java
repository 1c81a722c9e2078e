package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.Message;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one skill run gets: which session and call it serves, its validated arguments, a read-only
 * view of the session's state, a deadline and a cancellation signal. It gives no handle on any other
 * session and no way to change state except the writes the skill returns.
 * One context serves one call on one thread; it is immutable.
 */
public interface ExecutionContext {

    /** The session the call belongs to. */
    String sessionId();

    /** The id of the tool_use block this call answers. */
    String toolUseId();

    /** The arguments, already validated against the skill's schema. */
    JsonNode arguments();

    /** The variables of one scope as they were when the call started (temp: as of this turn). */
    Map<String, JsonNode> variables(VariableScope scope);

    /** A session variable, or null. */
    default JsonNode variable(String name) {
        return variables(VariableScope.SESSION).get(name);
    }

    /** The transcript as the session had it when the call started. */
    List<Message> messages();

    /** When the runtime stops waiting for this call. */
    Instant deadline();

    /** True once the call timed out or the turn was interrupted: stop and return. */
    boolean isCancelled();

    /**
     * A key that names this call and no other, stable across every retry, recovery and process:
     * {@code <session id>/<tool_use id>} (unique within a tenant). Pass it to the systems a skill
     * changes (e.g. as an Idempotency-Key) so a call that is ever attempted twice takes effect once.
     */
    default String idempotencyKey() {
        return sessionId() + "/" + toolUseId();
    }

    /**
     * Full-text search over the session's journal before the current turn, as {@code History.search} does
     * it: what was said long ago, also what compaction or {@code clear()} took out of the window (not the
     * question being answered). The runtime's contexts search; a context a test builds finds nothing
     * unless it overrides this.
     *
     * @throws dev.threadline.core.error.InvalidInputException for a query with no word or over 1,000 characters, or a limit outside 1-100
     */
    default List<dev.threadline.core.model.SearchHit> search(String query, int limit) {
        return List.of();
    }

    /** A logger named after the skill, with the session and call in its messages. */
    org.slf4j.Logger logger();
}
