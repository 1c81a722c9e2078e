package dev.threadline.core.skill.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ToolSpec;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltinsTest {
    @TempDir
    Path ws;

    @Test
    void allFourRegisterAndDescribeThemselves() {
        SkillRegistry registry = SkillRegistry.of(Builtins.all(ws));
        assertThat(registry.names()).containsExactly("calculate", "meeting_minutes", "read_file", "list_files");
        assertThat(registry.toolSpecs(java.util.List.of())).extracting(ToolSpec::description).allSatisfy(d -> assertThat(d).isNotBlank());
    }

    @Test
    void theirSchemasCatchBadArguments() {
        SkillRegistry registry = SkillRegistry.of(Builtins.all(ws));
        var v = registry.validator();
        Skill calc = registry.find("calculate").orElseThrow();
        Skill notes = registry.find("meeting_minutes").orElseThrow();
        Skill list = registry.find("list_files").orElseThrow();
        assertThat(v.validate(calc, Json.parse("{}", "t"))).containsExactly("$.expression: is missing but it is required");
        assertThat(v.validate(notes, Json.parse("{\"action\":\"shout\"}", "t"))).singleElement().asString().startsWith("$.action:");
        assertThat(v.validate(notes, Json.parse("{\"action\":\"add\",\"note\":\"x\"}", "t"))).isEmpty();
        assertThat(v.validate(list, Json.parse("{}", "t"))).isEmpty();
        assertThat(v.validate(list, Json.parse("{\"path\":3}", "t"))).singleElement().asString().startsWith("$.path:");
    }
}
