package dev.threadline.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.state.VariableScope;
import java.util.Map;

/**
 * The store's role as the keeper of variables shared across sessions (user and app scopes). They are
 * written only with an append ({@link AppendRequest#writes()}). Implementations are thread-safe.
 */
public interface SharedVariables {

    /** The shared variables of a scope ({@link VariableScope#USER} or {@link VariableScope#APP}) and key. */
    Map<String, JsonNode> variables(VariableScope scope, String key);
}
