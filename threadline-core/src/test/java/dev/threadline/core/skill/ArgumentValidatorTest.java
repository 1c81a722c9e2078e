package dev.threadline.core.skill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ArgumentValidatorTest {
    private static final TestSkill CALC = TestSkill.withSchema("calculate", """
            {"type":"object","properties":{"expression":{"type":"string"}},
             "required":["expression"],"additionalProperties":false}""");

    private final ArgumentValidator validator = new ArgumentValidator();

    private static JsonNode json(String s) {
        return Json.parse(s, "test");
    }

    @Test
    void validArgumentsHaveNoProblems() {
        assertThat(validator.validate(CALC, json("{\"expression\":\"1+2\"}"))).isEmpty();
    }

    @Test
    void missingRequiredFieldIsNamed() {
        assertThat(validator.validate(CALC, json("{}")))
                .containsExactly("$.expression: is missing but it is required");
    }

    @Test
    void wrongTypeIsNamed() {
        assertThat(validator.validate(CALC, json("{\"expression\":42}")))
                .singleElement().asString().startsWith("$.expression:").contains("string");
    }

    @Test
    void unknownArgumentIsNamed() {
        assertThat(validator.validate(CALC, json("{\"expression\":\"1\",\"extra\":true}")))
                .containsExactly("$.extra: is not allowed (no such argument)");
    }

    @Test
    void nonObjectArgumentsAreRefused() {
        assertThat(validator.validate(CALC, json("[1,2]"))).containsExactly("$: arguments must be a JSON object, got array");
        assertThat(validator.validate(CALC, json("\"1+2\""))).containsExactly("$: arguments must be a JSON object, got string");
        assertThat(validator.validate(CALC, null)).containsExactly("$: arguments are missing; expected a JSON object");
        assertThat(validator.validate(CALC, json("null"))).containsExactly("$: arguments are missing; expected a JSON object");
    }

    @Test
    void requireValidThrowsNamingTheSkillAndField() {
        assertThatThrownBy(() -> validator.requireValid(CALC, json("{}")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("skill 'calculate'")
                .hasMessageContaining("$.expression: is missing");
    }

    @Test
    void aSkillReplacedUnderTheSameNameIsRecompiled() {
        TestSkill other = TestSkill.withSchema("calculate", """
                {"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}""");
        assertThat(validator.validate(CALC, json("{\"expression\":\"1\"}"))).isEmpty();
        assertThat(validator.validate(other, json("{\"expression\":\"1\"}"))).containsExactly("$.x: is missing but it is required");
        assertThat(validator.validate(CALC, json("{\"expression\":\"1\"}"))).isEmpty();
    }

    @Test
    void concurrentValidationAgrees() throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<List<String>>> results = IntStream.range(0, 200)
                    .mapToObj(i -> pool.submit(() -> validator.validate(CALC, json(i % 2 == 0 ? "{}" : "{\"expression\":\"1\"}"))))
                    .toList();
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get()).hasSize(i % 2 == 0 ? 1 : 0);
            }
        }
    }

    @Test
    void aGoodSkillPassesTheRegistrationCheck() {
        assertThat(validator.check(CALC)).isEmpty();
    }

    @Test
    void badNamesAreRefused() {
        assertThat(validator.check(TestSkill.named("has space"))).singleElement().asString()
                .contains("'has space'").contains("[a-zA-Z0-9_-]{1,64}");
        assertThat(validator.check(TestSkill.named("x".repeat(65)))).hasSize(1);
        assertThat(validator.check(TestSkill.named(""))).hasSize(1);
        assertThat(validator.check(TestSkill.named("ok_name-2"))).isEmpty();
        assertThat(validator.check(TestSkill.named("x".repeat(64)))).isEmpty();
    }

    @Test
    void blankDescriptionIsRefused() {
        assertThat(validator.check(new TestSkill("a", " ", json("{\"type\":\"object\"}"))))
                .containsExactly("description must not be blank");
    }

    @Test
    void schemaMustBeAnObjectSchema() {
        assertThat(validator.check(TestSkill.withSchema("a", "{\"type\":\"string\"}"))).singleElement().asString()
                .contains("\"type\": \"object\"");
        assertThat(validator.check(TestSkill.withSchema("a", "[]"))).singleElement().asString()
                .contains("must be a JSON object, got array");
        assertThat(validator.check(new TestSkill("a", "d", null))).containsExactly("input schema is missing");
    }

    @Test
    void schemaMustPassTheMetaSchema() {
        assertThat(validator.check(TestSkill.withSchema("a",
                "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"strng\"}}}")))
                .isNotEmpty().allSatisfy(p -> assertThat(p).startsWith("input schema $.properties.x.type"));
        assertThat(validator.check(TestSkill.withSchema("a", "{\"type\":\"object\",\"required\":\"x\"}")))
                .singleElement().asString().startsWith("input schema $.required");
    }

    @Test
    void remoteReferencesAreRefusedWithoutFetching() {
        assertThat(validator.check(TestSkill.withSchema("a",
                "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"https://example.com/x.json\"}}}")))
                .singleElement().asString().contains("$.properties.x.$ref").contains("only local references");
    }

    @Test
    void validatingWithAnUnusableSchemaIsAnInvalidInputNamingTheSkill() {
        TestSkill remote = TestSkill.withSchema("remote",
                "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"https://example.com/x.json\"}}}");
        assertThatThrownBy(() -> validator.validate(remote, json("{\"x\":1}")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("skill 'remote'")
                .hasMessageContaining("only local references");
        assertThatThrownBy(() -> validator.validate(new TestSkill("nothing", "d", null), json("{}")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("input schema is missing");
    }

    @Test
    void theValidatorNeverFetchesSchemasFromTheNetwork() {
        TestSkill foreignMeta = TestSkill.withSchema("foreign",
                "{\"$schema\":\"https://example.com/meta-schema\",\"type\":\"object\"}");
        assertThat(validator.check(foreignMeta)).singleElement().asString()
                .contains("cannot be compiled").contains("https://example.com/meta-schema").contains("not allowed");
    }

    @Test
    void localReferencesWork() {
        TestSkill s = TestSkill.withSchema("a", """
                {"type":"object","$defs":{"n":{"type":"integer"}},
                 "properties":{"x":{"$ref":"#/$defs/n"}}}""");
        assertThat(validator.check(s)).isEmpty();
        assertThat(validator.validate(s, json("{\"x\":\"no\"}"))).singleElement().asString().startsWith("$.x:");
    }

    @Test
    void requireRegistrableNamesTheSkill() {
        assertThatThrownBy(() -> validator.requireRegistrable(TestSkill.named("bad name")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("skill 'bad name'");
    }
}
