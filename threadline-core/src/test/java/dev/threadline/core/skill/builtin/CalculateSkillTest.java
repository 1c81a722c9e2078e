package dev.threadline.core.skill.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.skill.SkillResult;
import org.junit.jupiter.api.Test;

class CalculateSkillTest {
    private final CalculateSkill skill = new CalculateSkill();

    private SkillResult run(String args) {
        return skill.execute(Contexts.of(args));
    }

    @Test
    void answersWithTheFormattedNumber() {
        SkillResult r = run("{\"expression\":\"(2+3)*4\"}");
        assertThat(r.isError()).isFalse();
        assertThat(r.content()).isEqualTo("20");
        assertThat(r.writes()).isEmpty();
        assertThat(run("{\"expression\":\"0.1+0.2\"}").content()).isEqualTo("0.3");
    }

    @Test
    void badExpressionsAreErrorResultsNamingProblemAndPosition() {
        SkillResult r = run("{\"expression\":\"1/0\"}");
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).isEqualTo("cannot evaluate '1/0': division by zero at position 2");
        assertThat(run("{\"expression\":\"(1+2\"}").content()).contains("'(' is never closed at position 1");
        assertThat(run("{\"expression\":\"\"}").content()).contains("expression is empty");
        assertThat(run("{\"expression\":\"" + "1+".repeat(600) + "1\"}").content())
                .contains("...'").contains("too long");
    }

    @Test
    void describesItselfForTheModel() {
        assertThat(skill.name()).isEqualTo("calculate");
        assertThat(skill.description()).contains("sqrt").contains("pi");
        assertThat(skill.inputSchema().at("/required/0").asText()).isEqualTo("expression");
        skill.inputSchema().withObject("/properties").removeAll();
        assertThat(skill.inputSchema().at("/properties/expression").isObject()).as("schema not shared").isTrue();
    }
}
