package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;

/** A skill for tests: fixed name, description and schema; echoes its arguments. */
record TestSkill(String name, String description, JsonNode inputSchema) implements Skill {

    static TestSkill withSchema(String name, String schemaJson) {
        return new TestSkill(name, "a test skill", Json.parse(schemaJson, "schema"));
    }

    static TestSkill named(String name) {
        return withSchema(name, "{\"type\":\"object\"}");
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        return SkillResult.ok(context.arguments().toString());
    }
}
