package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.model.Message;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import dev.threadline.core.log.Logs;
import org.slf4j.Logger;

/**
 * A plain {@link ExecutionContext}: the values of one skill run, fixed when it starts.
 *
 * <p>The arguments and variables are deep-copied on construction, so a skill that mutates the JSON it
 * is given cannot reach the session's state (whose values may be shared with other readers). The
 * cost is one copy of the variables per skill run, proportional to their size, not to the transcript.
 *
 * @param sessionId the session the call belongs to
 * @param toolUseId the id of the tool_use block being answered
 * @param arguments the validated arguments (an object)
 * @param variables the variables of each scope as of the start of the call; missing scopes are empty
 * @param messages  the transcript as of the start of the call
 * @param deadline  when the runtime stops waiting
 * @param cancelled true once the call timed out or its turn was interrupted
 */
public record SimpleExecutionContext(String sessionId, String toolUseId, JsonNode arguments,
                                     Map<VariableScope, Map<String, JsonNode>> variables, List<Message> messages,
                                     Instant deadline, BooleanSupplier cancelled) implements ExecutionContext {

    private static final Logger LOG = Logs.get("dev.threadline.skill");

    public SimpleExecutionContext {
        Require.nonBlank(sessionId, "sessionId");
        Require.nonBlank(toolUseId, "toolUseId");
        arguments = arguments == null ? NullNode.getInstance() : arguments.deepCopy();
        variables = copy(variables);
        // not copied: the runtime passes a State's transcript, which is immutable, and copying it per call is O(history)
        messages = messages == null ? List.of() : java.util.Collections.unmodifiableList(messages);
        Require.nonNull(deadline, "deadline");
        cancelled = cancelled == null ? () -> false : cancelled;
    }

    /** A context with only session variables, no transcript and no cancellation: handy for tests and tools. */
    public static SimpleExecutionContext of(String sessionId, String toolUseId, JsonNode arguments,
                                            Map<String, JsonNode> sessionVariables, Instant deadline) {
        return new SimpleExecutionContext(sessionId, toolUseId, arguments,
                Map.of(VariableScope.SESSION, sessionVariables), List.of(), deadline, () -> false);
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope) {
        return variables.getOrDefault(Require.nonNull(scope, "scope"), Map.of());
    }

    @Override
    public boolean isCancelled() {
        return cancelled.getAsBoolean();
    }

    @Override
    public Logger logger() {
        return LOG;
    }

    private static Map<VariableScope, Map<String, JsonNode>> copy(Map<VariableScope, Map<String, JsonNode>> in) {
        Map<VariableScope, Map<String, JsonNode>> out = new EnumMap<>(VariableScope.class);
        if (in != null) {
            in.forEach((scope, vars) -> {
                Map<String, JsonNode> copied = new HashMap<>();
                if (vars != null) {
                    vars.forEach((name, value) -> copied.put(name, value == null ? NullNode.getInstance() : value.deepCopy()));
                }
                out.put(Require.nonNull(scope, "variables scope"), Map.copyOf(copied));
            });
        }
        return java.util.Collections.unmodifiableMap(out);
    }
}
