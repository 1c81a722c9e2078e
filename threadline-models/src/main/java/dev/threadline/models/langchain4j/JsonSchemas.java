package dev.threadline.models.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts a skill's JSON Schema into LangChain4j's schema elements: object (properties, required,
 * additionalProperties, $defs), string, string enum, integer, number, boolean, null, array, anyOf/oneOf,
 * a union type ({@code ["string","null"]}) and {@code $ref}. Keywords LangChain4j has no field for
 * (minimum, maxLength, pattern, ...) are not carried over: the skill's own validation still enforces
 * them, and a refused call comes back to the model as an is_error result. Anything else becomes a
 * {@link JsonRawSchema} holding the schema as written.
 */
final class JsonSchemas {
    private JsonSchemas() {}

    /** The parameters of a tool: an object schema (an empty one when the schema is not an object). */
    static JsonObjectSchema parameters(JsonNode schema) {
        if (schema != null && element(schema) instanceof JsonObjectSchema object) {
            return object;
        }
        return JsonObjectSchema.builder().build();
    }

    static JsonSchemaElement element(JsonNode s) {
        String description = s.path("description").isTextual() ? s.path("description").asText() : null;
        if (s.has("$ref")) {
            String ref = s.get("$ref").asText();
            return JsonReferenceSchema.builder().reference(ref.replaceFirst("^#/(\\$defs|definitions)/", "")).build();
        }
        if (s.path("enum").isArray() && allText(s.get("enum"))) {
            List<String> values = new ArrayList<>();
            s.get("enum").forEach(v -> values.add(v.asText()));
            return JsonEnumSchema.builder().description(description).enumValues(values).build();
        }
        JsonNode union = s.has("anyOf") ? s.get("anyOf") : s.get("oneOf");
        if (union != null && union.isArray()) {
            List<JsonSchemaElement> options = new ArrayList<>();
            union.forEach(o -> options.add(element(o)));
            return JsonAnyOfSchema.builder().description(description).anyOf(options).build();
        }
        JsonNode type = s.get("type");
        if (type != null && type.isArray()) {
            List<JsonSchemaElement> options = new ArrayList<>();
            type.forEach(t -> options.add(element(((ObjectNode) s.deepCopy()).put("type", t.asText()))));
            return JsonAnyOfSchema.builder().description(description).anyOf(options).build();
        }
        String t = type == null ? (s.has("properties") ? "object" : "") : type.asText();
        return switch (t) {
            case "object" -> object(s, description);
            case "string" -> JsonStringSchema.builder().description(description).build();
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            case "null" -> new JsonNullSchema();
            case "array" -> s.path("items").isObject()
                    ? JsonArraySchema.builder().description(description).items(element(s.get("items"))).build()
                    : JsonRawSchema.from(s.toString());
            default -> JsonRawSchema.from(s.toString());
        };
    }

    private static JsonObjectSchema object(JsonNode s, String description) {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder().description(description);
        Map<String, JsonSchemaElement> properties = new LinkedHashMap<>();
        s.path("properties").properties().forEach(e -> properties.put(e.getKey(), element(e.getValue())));
        b.addProperties(properties);
        List<String> required = new ArrayList<>();
        s.path("required").forEach(r -> required.add(r.asText()));
        if (!required.isEmpty()) {
            b.required(required);
        }
        if (s.path("additionalProperties").isBoolean()) {
            b.additionalProperties(s.get("additionalProperties").asBoolean());
        }
        JsonNode defs = s.has("$defs") ? s.get("$defs") : s.get("definitions");
        if (defs != null && defs.isObject()) {
            Map<String, JsonSchemaElement> definitions = new LinkedHashMap<>();
            defs.properties().forEach(e -> definitions.put(e.getKey(), element(e.getValue())));
            b.definitions(definitions);
        }
        return b.build();
    }

    private static boolean allText(JsonNode values) {
        for (JsonNode v : values) {
            if (!v.isTextual()) {
                return false;
            }
        }
        return !values.isEmpty();
    }
}
