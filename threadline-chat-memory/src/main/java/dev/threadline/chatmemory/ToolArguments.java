package dev.threadline.chatmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;

/**
 * Tool arguments between a framework's text and a tool_use block's input: a JSON object is kept as an
 * object (and written back compactly); anything else (null, blank, invalid JSON, another JSON value) is kept
 * verbatim under {@link #RAW}, the convention threadline-models uses too. Stateless and thread-safe.
 */
public final class ToolArguments {
    /** The input key holding arguments that are not a JSON object. */
    public static final String RAW = "_raw";

    private ToolArguments() {}

    /** The tool_use input for a framework's argument text (null for none). */
    public static JsonNode toInput(String arguments) {
        JsonNode parsed = null;
        if (arguments != null) {
            try {
                parsed = Json.mapper().readTree(arguments);
            } catch (Exception e) {
                parsed = null;
            }
        }
        if (parsed != null && parsed.isObject() && !isRaw(parsed)) {
            return parsed;
        }
        ObjectNode raw = Json.object();
        return arguments == null ? raw.putNull(RAW) : raw.put(RAW, arguments);
    }

    /**
     * The framework's argument text for a tool_use input: the verbatim text of a {@link #RAW} input (null when
     * there was none), else compact JSON.
     *
     * @throws NullPointerException when {@code input} is null
     */
    public static String toText(JsonNode input) {
        return isRaw(input) ? (input.get(RAW).isNull() ? null : input.get(RAW).asText()) : Json.write(input);
    }

    private static boolean isRaw(JsonNode input) {
        return input.isObject() && input.size() == 1 && input.has(RAW) && (input.get(RAW).isTextual() || input.get(RAW).isNull());
    }
}
