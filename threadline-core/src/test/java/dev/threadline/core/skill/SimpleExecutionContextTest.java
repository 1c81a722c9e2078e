package dev.threadline.core.skill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.Message;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SimpleExecutionContextTest {
    private static final Instant DEADLINE = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void exposesItsValues() {
        AtomicBoolean cancelled = new AtomicBoolean();
        var ctx = new SimpleExecutionContext("s1", "toolu_1", Json.parse("{\"a\":1}", "t"),
                Map.of(VariableScope.SESSION, Map.of("x", Json.parse("1", "t")),
                        VariableScope.USER, Map.of("y", Json.parse("2", "t"))),
                List.of(Message.user("hi")), DEADLINE, cancelled::get);
        assertThat(ctx.sessionId()).isEqualTo("s1");
        assertThat(ctx.variable("x").asInt()).isEqualTo(1);
        assertThat(ctx.variable("y")).isNull();
        assertThat(ctx.variables(VariableScope.USER)).containsKey("y");
        assertThat(ctx.variables(VariableScope.APP)).isEmpty();
        assertThat(ctx.messages()).hasSize(1);
        assertThat(ctx.isCancelled()).isFalse();
        cancelled.set(true);
        assertThat(ctx.isCancelled()).isTrue();
        assertThat(ctx.logger()).isNotNull();
    }

    @Test
    void aSkillCannotMutateTheStateItWasGiven() {
        ArrayNode notes = (ArrayNode) Json.parse("[\"a\"]", "t");
        ObjectNode args = (ObjectNode) Json.parse("{\"k\":\"v\"}", "t");
        var ctx = SimpleExecutionContext.of("s1", "toolu_1", args, Map.of("notes", notes), DEADLINE);
        ((ArrayNode) ctx.variable("notes")).add("injected");
        ((ObjectNode) ctx.arguments()).put("k", "changed");
        assertThat(notes).hasSize(1);
        assertThat(args.get("k").asText()).isEqualTo("v");
        assertThatThrownBy(() -> ctx.variables(VariableScope.SESSION).put("z", notes))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void refusesMissingIdsAndDeadline() {
        JsonNode args = Json.object();
        assertThatThrownBy(() -> SimpleExecutionContext.of(" ", "t", args, Map.of(), DEADLINE))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("sessionId");
        assertThatThrownBy(() -> SimpleExecutionContext.of("s", null, args, Map.of(), DEADLINE))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("toolUseId");
        assertThatThrownBy(() -> SimpleExecutionContext.of("s", "t", args, Map.of(), null))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("deadline");
    }
}
