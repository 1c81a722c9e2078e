package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.Message;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A plain {@link ExecutionContext}: the runtime builds one per skill run; tests build their own.
 * The variable maps are copied; {@code messages} must be an immutable list (a State's transcript is),
 * so a skill can never reach live state through them.
 */
public record SimpleExecutionContext(String sessionId, String toolUseId, JsonNode arguments,
                                     Map<VariableScope, Map<String, JsonNode>> variables, List<Message> messages,
                                     Instant deadline, BooleanSupplier cancelled) implements ExecutionContext {

    public SimpleExecutionContext {
        variables = Map.copyOf(variables);
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope) {
        return variables.getOrDefault(scope, Map.of());
    }

    @Override
    public boolean isCancelled() {
        return cancelled.getAsBoolean();
    }

    @Override
    public Logger logger() {
        return LoggerFactory.getLogger("dev.threadline.skill");
    }
}
