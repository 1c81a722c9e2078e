package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Hands Threadline's (Jackson 2) trees to json-schema-validator 3.x, which reads Jackson 3 trees: the
 * tree is written as JSON text and read back. Stateless and thread-safe.
 */
final class Jackson3 {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Jackson3() {}

    /** The same JSON as a Jackson 3 tree. */
    static tools.jackson.databind.JsonNode tree(JsonNode node) {
        return MAPPER.readTree(node.toString());
    }
}
