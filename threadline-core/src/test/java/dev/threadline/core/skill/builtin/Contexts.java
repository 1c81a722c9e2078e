package dev.threadline.core.skill.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.SimpleExecutionContext;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Builds execution contexts for skill tests, and applies results' writes the way the runtime would. */
final class Contexts {
    private Contexts() {}

    static SimpleExecutionContext of(String argumentsJson) {
        return of("s1", argumentsJson, Map.of());
    }

    static SimpleExecutionContext of(String sessionId, String argumentsJson, Map<String, JsonNode> sessionVariables) {
        return SimpleExecutionContext.of(sessionId, "toolu_1", Json.parse(argumentsJson, "arguments"), sessionVariables,
                Instant.parse("2030-01-01T00:00:00Z"));
    }

    /** The session variables after applying {@code result}'s session writes to {@code before}. */
    static Map<String, JsonNode> apply(Map<String, JsonNode> before, SkillResult result) {
        Map<String, JsonNode> after = new HashMap<>(before);
        for (VariableWrite w : result.writes()) {
            if (w.scope() != VariableScope.SESSION) {
                throw new AssertionError("unexpected write to scope " + w.scope());
            }
            JsonNode value = w.applyTo(after.get(w.name()));
            if (value == null) {
                after.remove(w.name());
            } else {
                after.put(w.name(), value);
            }
        }
        return Map.copyOf(after);
    }
}
