package dev.threadline.core.skill.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.state.VariableScope;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeetingMinutesSkillTest {
    private final MeetingMinutesSkill skill = new MeetingMinutesSkill();

    /** Runs one call in {@code session} with {@code vars}; returns the variables after applying its writes. */
    private Map<String, JsonNode> step(String session, Map<String, JsonNode> vars, String args, String expected) {
        SkillResult r = skill.execute(Contexts.of(session, args, vars));
        assertThat(r.isError()).as(r.content()).isFalse();
        assertThat(r.content()).isEqualTo(expected);
        return Contexts.apply(vars, r);
    }

    @Test
    void addListAndClear() {
        Map<String, JsonNode> vars = Map.of();
        vars = step("s", vars, "{\"action\":\"list\"}", "No notes yet.");
        vars = step("s", vars, "{\"action\":\"add\",\"note\":\"buy milk\"}", "Noted (1 note): buy milk");
        vars = step("s", vars, "{\"action\":\"add\",\"note\":\"  call Bob  \"}", "Noted (2 notes): call Bob");
        vars = step("s", vars, "{\"action\":\"add\",\"note\":\"ship v1\"}", "Noted (3 notes): ship v1");
        assertThat(vars.get("meeting_notes")).isEqualTo(Json.parse("[\"buy milk\",\"call Bob\",\"ship v1\"]", "t"));
        vars = step("s", vars, "{\"action\":\"list\"}", "1. buy milk\n2. call Bob\n3. ship v1");
        vars = step("s", vars, "{\"action\":\"clear\"}", "Cleared 3 notes.");
        assertThat(vars).doesNotContainKey("meeting_notes");
        step("s", vars, "{\"action\":\"clear\"}", "No notes to clear.");
    }

    @Test
    void writesAreSessionScopedAndProposedNotApplied() {
        SkillResult r = skill.execute(Contexts.of("s", "{\"action\":\"add\",\"note\":\"x\"}", Map.of()));
        assertThat(r.writes()).singleElement().satisfies(w -> {
            assertThat(w.scope()).isEqualTo(VariableScope.SESSION);
            assertThat(w.name()).isEqualTo("meeting_notes");
            // an append of the one note, not the whole list: parallel adds do not overwrite each other
            assertThat(w.kind()).isEqualTo(VariableWrite.Kind.APPEND);
            assertThat(w.value()).isEqualTo(Json.parse("\"x\"", "t"));
        });
        SkillResult clear = skill.execute(Contexts.of("s", "{\"action\":\"clear\"}",
                Map.of("meeting_notes", Json.parse("[\"x\"]", "t"))));
        assertThat(clear.writes()).singleElement().extracting(VariableWrite::isRemoval).isEqualTo(true);
    }

    @Test
    void twoSessionsNeverMixNotes() {
        Map<String, JsonNode> a = Map.of();
        Map<String, JsonNode> b = Map.of();
        a = step("session-a", a, "{\"action\":\"add\",\"note\":\"alpha 1\"}", "Noted (1 note): alpha 1");
        b = step("session-b", b, "{\"action\":\"add\",\"note\":\"beta 1\"}", "Noted (1 note): beta 1");
        a = step("session-a", a, "{\"action\":\"add\",\"note\":\"alpha 2\"}", "Noted (2 notes): alpha 2");
        step("session-b", b, "{\"action\":\"list\"}", "1. beta 1");
        step("session-a", a, "{\"action\":\"list\"}", "1. alpha 1\n2. alpha 2");
        b = step("session-b", b, "{\"action\":\"clear\"}", "Cleared 1 note.");
        step("session-a", a, "{\"action\":\"list\"}", "1. alpha 1\n2. alpha 2");
    }

    @Test
    void theInstanceHoldsNoPerSessionState() {
        Field[] instanceFields = Arrays.stream(MeetingMinutesSkill.class.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers())).toArray(Field[]::new);
        assertThat(instanceFields).isEmpty();
    }

    @Test
    void addWithoutANoteIsAnError() {
        SkillResult r = skill.execute(Contexts.of("{\"action\":\"add\"}"));
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).contains("'note'");
        assertThat(r.writes()).isEmpty();
        assertThat(skill.execute(Contexts.of("{\"action\":\"add\",\"note\":\"   \"}")).isError()).isTrue();
    }

    @Test
    void aCorruptVariableIsReportedAndCanBeCleared() {
        Map<String, JsonNode> vars = Map.of("meeting_notes", Json.parse("{\"oops\":1}", "t"));
        SkillResult r = skill.execute(Contexts.of("s", "{\"action\":\"list\"}", vars));
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).contains("meeting_notes").contains("object").contains("clear");
        assertThat(skill.execute(Contexts.of("s", "{\"action\":\"clear\"}", vars)).writes()).hasSize(1);
    }

    @Test
    void theNoteCountIsCapped() {
        var full = Json.mapper().createArrayNode();
        for (int i = 0; i < MeetingMinutesSkill.MAX_NOTES; i++) {
            full.add("n" + i);
        }
        SkillResult r = skill.execute(Contexts.of("s", "{\"action\":\"add\",\"note\":\"one more\"}",
                Map.of("meeting_notes", full)));
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).contains("limit");
    }
}
