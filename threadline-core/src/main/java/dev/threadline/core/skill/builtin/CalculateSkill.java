package dev.threadline.core.skill.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.skill.builtin.calc.ExpressionException;
import dev.threadline.core.skill.builtin.calc.ExpressionParser;
import dev.threadline.core.skill.builtin.calc.ResultFormatter;

/**
 * {@code calculate}: evaluates an arithmetic expression with Threadline's own parser (no script
 * engine) and answers with the number. A bad expression is an error result naming the problem and
 * its position, never an exception.
 */
public final class CalculateSkill implements Skill {
    /** The built-in {@code calculate} skill. */
    public CalculateSkill() {}

    /** The skill's name. */
    public static final String NAME = "calculate";

    private static final JsonNode SCHEMA = Json.parse("""
            {
              "type": "object",
              "properties": {
                "expression": {
                  "type": "string",
                  "description": "The arithmetic expression, e.g. (2+3)*4 or sqrt(2)^2 or round(pi, 3)",
                  "maxLength": %d
                }
              },
              "required": ["expression"],
              "additionalProperties": false
            }""".formatted(ExpressionParser.MAX_LENGTH), "calculate schema");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Evaluates an arithmetic expression and returns the result. Use it for any arithmetic rather than "
                + "computing in your head. Supports numbers (2.5, 1e-3), + - * / % ^ (power, right-associative), "
                + "unary minus, parentheses, the functions sqrt abs round floor ceil min max ln log exp sin cos tan "
                + "(radians; log is base 10, log(x, b) base b; round(x, digits)) and the constants pi and e.";
    }

    @Override
    public JsonNode inputSchema() {
        return SCHEMA.deepCopy();
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        String expression = context.arguments().path("expression").asText("");
        try {
            return SkillResult.ok(ResultFormatter.format(ExpressionParser.evaluate(expression)));
        } catch (ExpressionException e) {
            return SkillResult.error("cannot evaluate " + quoted(expression) + ": " + e.getMessage());
        }
    }

    private static String quoted(String expression) {
        return expression.length() <= 80 ? "'" + expression + "'" : "'" + expression.substring(0, 77) + "...'";
    }

    /** Read-only: it computes only. */
    @Override
    public dev.threadline.core.skill.SkillPolicy policy() {
        return dev.threadline.core.skill.SkillPolicy.DEFAULT.withEffect(dev.threadline.core.skill.Effect.READ_ONLY);
    }
}
