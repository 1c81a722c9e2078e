package dev.threadline.core.runtime;

import dev.threadline.core.internal.engine.state.VariableWrites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.state.VariableScope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class VariableWritesTest {
    private final List<VariableScope> asked = new ArrayList<>();
    private final Function<VariableScope, Map<String, JsonNode>> shared = scope -> {
        asked.add(scope);
        return scope == VariableScope.USER ? Map.of("prefs", Json.parse("[\"dark\"]", "t")) : Map.of();
    };

    private static JsonNode json(String s) {
        return Json.parse(s, "t");
    }

    @Test
    void writesApplyInOrderToTheCurrentValues() {
        Map<String, JsonNode> session = Map.of("notes", json("[\"a\"]"), "gone", IntNode.valueOf(1));
        VariableWrites.Plan plan = VariableWrites.plan(List.of(
                VariableWrite.append(VariableScope.SESSION, "notes", TextNode.valueOf("b")),
                VariableWrite.append(VariableScope.SESSION, "notes", TextNode.valueOf("c")),
                VariableWrite.append(VariableScope.SESSION, "fresh", IntNode.valueOf(7)),
                VariableWrite.set(VariableScope.SESSION, "reset", json("[1]")),
                VariableWrite.append(VariableScope.SESSION, "reset", IntNode.valueOf(2)),
                VariableWrite.remove(VariableScope.SESSION, "gone"),
                VariableWrite.append(VariableScope.USER, "prefs", TextNode.valueOf("compact"))), session, shared, Map.of());

        assertThat(plan.problem()).isNull();
        assertThat(plan.events()).containsExactly(
                new Event.VariablesChanged(VariableScope.SESSION, Map.of("notes", json("[\"a\",\"b\",\"c\"]"),
                        "fresh", json("[7]"), "reset", json("[1,2]")), List.of("gone")),
                new Event.VariablesChanged(VariableScope.USER, Map.of("prefs", json("[\"dark\",\"compact\"]")), List.of()));
        assertThat(session.get("notes")).as("the current values are only read").isEqualTo(json("[\"a\"]"));
        assertThat(asked).containsExactly(VariableScope.USER);
    }

    @Test
    void noWritesReadNothing() {
        VariableWrites.Plan plan = VariableWrites.plan(List.of(), Map.of(), shared, Map.of());
        assertThat(plan.events()).isEmpty();
        assertThat(asked).isEmpty();
        Event.ToolCallEnded result = new Event.ToolCallCompleted("t1", "ok", false);
        assertThat(plan.recording(result)).containsExactly(result);
    }

    @Test
    void tempWritesAreNotJournalledButAppliedOnceRecorded() {
        Map<String, JsonNode> temp = new HashMap<>(Map.of("seen", json("[1]"), "old", IntNode.valueOf(0)));
        VariableWrites.Plan plan = VariableWrites.plan(List.of(
                VariableWrite.append(VariableScope.TEMP, "seen", IntNode.valueOf(2)),
                VariableWrite.remove(VariableScope.TEMP, "old")), Map.of(), shared, Map.copyOf(temp));
        assertThat(plan.events()).isEmpty();
        assertThat(temp.get("seen")).isEqualTo(json("[1]"));
        plan.applyTemp(temp);
        assertThat(temp).isEqualTo(Map.of("seen", json("[1,2]")));
    }

    @Test
    void anAppendToANonArrayIsAProblemAndNoWriteIsMade() {
        VariableWrites.Plan plan = VariableWrites.plan(List.of(
                VariableWrite.set(VariableScope.SESSION, "ok", IntNode.valueOf(1)),
                VariableWrite.append(VariableScope.SESSION, "title", TextNode.valueOf("x"))),
                Map.of("title", TextNode.valueOf("Weekly")), shared, Map.of());
        assertThat(plan.problem()).isEqualTo("cannot append to the session variable 'title': it holds string, not an array");
        assertThat(plan.events()).isEmpty();
        List<Event> recorded = plan.recording(new Event.ToolCallCompleted("t1", "Noted", false));
        assertThat(recorded).singleElement().isInstanceOfSatisfying(Event.ToolCallCompleted.class, e -> {
            assertThat(e.toolUseId()).isEqualTo("t1");
            assertThat(e.isError()).isTrue();
            assertThat(e.content()).contains("'title'").contains("none of its variable changes were made");
        });
    }

    @Test
    void aWriteSaysWhatItIsAndRefusesAMissingValue() {
        assertThat(VariableWrite.append(VariableScope.SESSION, "n", IntNode.valueOf(1)).isAppend()).isTrue();
        assertThat(VariableWrite.remove(VariableScope.SESSION, "n").isRemoval()).isTrue();
        assertThat(new VariableWrite(VariableScope.SESSION, "n", null).kind()).isEqualTo(VariableWrite.Kind.REMOVE);
        assertThatThrownBy(() -> new VariableWrite(VariableScope.SESSION, "n", VariableWrite.Kind.APPEND, null))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("append of 'n' needs a value");
        assertThatThrownBy(() -> new VariableWrite(VariableScope.SESSION, "n", VariableWrite.Kind.REMOVE, IntNode.valueOf(1)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("removal carries no value");
    }
}
