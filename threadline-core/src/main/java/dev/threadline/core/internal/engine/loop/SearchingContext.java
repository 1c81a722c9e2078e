package dev.threadline.core.internal.engine.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.model.Message;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The context the runtime hands a skill: a {@link ExecutionContext} whose {@link #search} reads the
 * session's journal (when the skill asks, not before). Immutable; one per call.
 */
record SearchingContext(ExecutionContext base, BiFunction<String, Integer, List<SearchHit>> searcher) implements ExecutionContext {
    @Override
    public String sessionId() {
        return base.sessionId();
    }

    @Override
    public String toolUseId() {
        return base.toolUseId();
    }

    @Override
    public JsonNode arguments() {
        return base.arguments();
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope) {
        return base.variables(scope);
    }

    @Override
    public List<Message> messages() {
        return base.messages();
    }

    @Override
    public Instant deadline() {
        return base.deadline();
    }

    @Override
    public boolean isCancelled() {
        return base.isCancelled();
    }

    @Override
    public org.slf4j.Logger logger() {
        return base.logger();
    }

    @Override
    public List<SearchHit> search(String query, int limit) {
        return searcher.apply(query, limit);
    }
}
