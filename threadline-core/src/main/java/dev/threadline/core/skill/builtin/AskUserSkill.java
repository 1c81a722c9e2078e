package dev.threadline.core.skill.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;

/**
 * {@code ask_user}: the model asks the user a question. The call never runs: the turn suspends
 * durably ({@code InputRequested}, status {@code awaiting_input}) and {@code Session.answer(id, text)},
 * from any process, records the answer as the call's result and continues the turn. Stateless and
 * thread-safe.
 */
public final class AskUserSkill implements Skill {
    /** The built-in {@code ask_user} skill. */
    public AskUserSkill() {}

    /** The skill's name. */
    public static final String NAME = "ask_user";

    private static final JsonNode SCHEMA = Json.parse("""
            {
              "type": "object",
              "properties": {
                "question": {
                  "type": "string",
                  "minLength": 1,
                  "maxLength": 4000,
                  "description": "The question for the user, complete and self-contained"
                }
              },
              "required": ["question"],
              "additionalProperties": false
            }""", "ask_user schema");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Ask the user a question and wait for the answer. Use it when you need a decision or a fact"
                + " only the user has; the answer is this tool's result.";
    }

    @Override
    public JsonNode inputSchema() {
        return SCHEMA;
    }

    /** Answered by the user instead of run. */
    @Override
    public SkillPolicy policy() {
        return SkillPolicy.ANSWERED_BY_USER;
    }

    /** Never called by the runtime (the user answers instead); returns an error if something calls it anyway. */
    @Override
    public SkillResult execute(ExecutionContext context) {
        return SkillResult.error("ask_user is answered by the user, not run");
    }

    /** The question of a call's arguments (validated: a non-empty string). */
    public static String question(JsonNode arguments) {
        return arguments == null ? "" : arguments.path("question").asText("");
    }
}
