package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Structural checks on skill schemas and wording of validation messages, for {@link ArgumentValidator}. */
final class SchemaChecks {
    private SchemaChecks() {}

    /** The JSON type of {@code node} as a schema would name it. */
    static String typeName(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "array";
            case BOOLEAN -> "boolean";
            case NUMBER -> node.isIntegralNumber() ? "integer" : "number";
            case OBJECT -> "object";
            case STRING -> "string";
            case NULL, MISSING -> "null";
            default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * Problems with the shape of an input schema that the meta-schema does not catch: it must be a
     * schema object whose {@code type} is {@code object}, and its {@code $ref}s must be local.
     */
    static List<String> shape(JsonNode schema) {
        if (schema == null || schema.isNull() || schema.isMissingNode()) {
            return List.of("input schema is missing");
        }
        if (!schema.isObject()) {
            return List.of("input schema must be a JSON object, got " + typeName(schema));
        }
        List<String> problems = new ArrayList<>();
        JsonNode type = schema.get("type");
        if (type == null || !type.isTextual() || !type.asText().equals("object")) {
            problems.add("input schema must have \"type\": \"object\" (tool arguments are an object), got "
                    + (type == null ? "no type" : type.toString()));
        }
        collectRemoteRefs(schema, "$", problems);
        return problems;
    }

    private static void collectRemoteRefs(JsonNode node, String path, List<String> problems) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String key = e.getKey();
                JsonNode value = e.getValue();
                boolean isRef = key.equals("$ref") || key.equals("$dynamicRef");
                if (isRef && value.isTextual() && !value.asText().startsWith("#")) {
                    problems.add("input schema " + path + "." + key + ": only local references (\"#/...\") are allowed, got '"
                            + value.asText() + "'");
                }
                collectRemoteRefs(value, path + "." + key, problems);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectRemoteRefs(node.get(i), path + "[" + i + "]", problems);
            }
        }
    }

    /** One validation message, worded to start with the path of the field at fault. */
    static String describe(Error m) {
        String at = m.getInstanceLocation().toString();
        String property = m.getProperty();
        return switch (m.getKeyword()) {
            case "required" -> child(at, property) + ": is missing but it is required";
            case "additionalProperties" -> child(at, property) + ": is not allowed (no such argument)";
            // 3.x messages no longer start with the instance location: put it first, as 1.x did
            default -> at + ": " + m.getMessage();
        };
    }

    private static String child(String at, String property) {
        if (property == null) {
            return at;
        }
        return property.matches("[A-Za-z_][A-Za-z0-9_]*") ? at + "." + property : at + "['" + property + "']";
    }
}
