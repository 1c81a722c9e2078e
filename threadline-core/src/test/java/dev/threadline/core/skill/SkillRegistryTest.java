package dev.threadline.core.skill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkillRegistryTest {
    private final TestSkill a = TestSkill.named("alpha");
    private final TestSkill b = TestSkill.named("beta");
    private final TestSkill c = TestSkill.named("gamma");

    @Test
    void findsSkillsByName() {
        SkillRegistry registry = SkillRegistry.of(List.of(a, b));
        assertThat(registry.find("alpha")).containsSame(a);
        assertThat(registry.find("nope")).isEmpty();
        assertThat(registry.find(null)).isEmpty();
        assertThat(registry.all()).containsExactly(a, b);
        assertThat(registry.names()).containsExactly("alpha", "beta");
    }

    @Test
    void duplicateNamesAreRefusedNamingTheName() {
        assertThatThrownBy(() -> SkillRegistry.of(List.of(a, b, TestSkill.named("alpha"))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'alpha'")
                .hasMessageContaining("unique");
    }

    @Test
    void invalidSkillsAreRefusedAtRegistration() {
        assertThatThrownBy(() -> SkillRegistry.of(List.of(TestSkill.withSchema("s", "{\"type\":\"array\"}"))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("skill 's'")
                .hasMessageContaining("\"type\": \"object\"");
        assertThatThrownBy(() -> SkillRegistry.of(List.of(TestSkill.named("bad/name"))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("bad/name");
    }

    @Test
    void toolSpecsOfAllOrOfTheEnabledInRegistrationOrder() {
        SkillRegistry registry = SkillRegistry.of(List.of(a, b, c));
        assertThat(registry.toolSpecs(List.of())).extracting(ToolSpec::name).containsExactly("alpha", "beta", "gamma");
        assertThat(registry.toolSpecs(null)).hasSize(3);
        assertThat(registry.toolSpecs(List.of("gamma", "alpha"))).extracting(ToolSpec::name)
                .containsExactly("alpha", "gamma");
        ToolSpec spec = registry.toolSpecs(List.of("beta")).get(0);
        assertThat(spec.description()).isEqualTo("a test skill");
        assertThat(spec.inputSchema()).isEqualTo(b.inputSchema());
    }

    @Test
    void unknownEnabledSkillsAreRefusedNamingThem() {
        SkillRegistry registry = SkillRegistry.of(List.of(a));
        assertThatThrownBy(() -> registry.toolSpecs(List.of("alpha", "delta")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("delta")
                .hasMessageContaining("registered: [alpha]");
    }

    @Test
    void theRegistryIsImmutable() {
        java.util.ArrayList<Skill> source = new java.util.ArrayList<>(List.of(a));
        SkillRegistry registry = SkillRegistry.of(source);
        source.add(b);
        assertThat(registry.all()).containsExactly(a);
        assertThatThrownBy(() -> registry.all().add(b)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(SkillRegistry.empty().all()).isEmpty();
    }
}
