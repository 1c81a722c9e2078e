package dev.threadline.core.skill.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import java.util.List;

/**
 * {@code recall}: the model searches everything said in this session, also what has left its context
 * window (compacted into a summary, or cleared), and gets the best matching messages back with the seq
 * that holds each ({@code ExecutionContext.search}, i.e. {@code History.search}). Reads only; stateless
 * and thread-safe.
 */
public final class RecallSkill implements Skill {
    /** The skill's name. */
    public static final String NAME = "recall";
    /** The most hits one call returns. */
    public static final int MAX_HITS = 20;

    private static final JsonNode SCHEMA = Json.parse("""
            {
              "type": "object",
              "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 1000,
                          "description": "words to look for in the earlier conversation"},
                "limit": {"type": "integer", "minimum": 1, "maximum": %d,
                          "description": "how many messages to return (default 5)"}
              },
              "required": ["query"],
              "additionalProperties": false
            }""".formatted(MAX_HITS), "recall schema");

    /** The built-in recall skill. */
    public RecallSkill() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Searches everything said earlier in this conversation, including what no longer fits in your context, "
                + "and returns the best matching messages, each with its position (seq), who said it and an excerpt.";
    }

    @Override
    public JsonNode inputSchema() {
        return SCHEMA.deepCopy();
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        String query = context.arguments().path("query").asText();
        int limit = context.arguments().path("limit").asInt(5);
        List<SearchHit> hits;
        try {
            hits = context.search(query, limit);
        } catch (dev.threadline.core.error.InvalidInputException e) {
            return SkillResult.error("recall: " + e.getMessage());
        }
        if (hits.isEmpty()) {
            return SkillResult.ok("Nothing said earlier in this conversation matches \"" + query + "\".");
        }
        StringBuilder out = new StringBuilder(hits.size() + " earlier message(s) match \"" + query + "\", best first:");
        for (SearchHit h : hits) {
            out.append("\n- seq ").append(h.seq()).append(" (").append(h.role().name().toLowerCase()).append(", ")
                    .append(h.time()).append("): ").append(h.snippet());
        }
        return SkillResult.ok(out.toString());
    }
}
