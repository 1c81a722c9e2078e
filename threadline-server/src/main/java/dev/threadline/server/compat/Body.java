package dev.threadline.server.compat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A request body of a compatible surface: a JSON object whose fields are read with their types
 * checked. A field the surface does not support is refused with a 422 problem naming it (even with a
 * null value: nothing is silently ignored); a supported field whose value is null counts as absent; a
 * malformed value is a 400 naming it. Not thread-safe (one per
 * request).
 */
public final class Body {
    private final ObjectNode node;
    private final String prefix;

    private Body(ObjectNode node, String prefix) {
        this.node = node;
        this.prefix = prefix;
    }

    /**
     * Parses {@code bytes} (UTF-8 JSON; no bytes read as {@code {}}) and refuses fields outside {@code supported}.
     *
     * @throws ApiException 400 when the body is not a JSON object, 422 naming an unsupported field
     */
    public static Body parse(byte[] bytes, Set<String> supported) {
        if (bytes.length == 0) {
            return new Body(Json.object(), "");
        }
        JsonNode tree;
        try {
            tree = Json.mapper().readTree(dev.threadline.server.http.Utf8Only.text(bytes, "body")); // not Jackson's guess of UTF-16 or -32
        } catch (JsonProcessingException e) {
            throw ApiException.invalid("body", "malformed JSON");
        }
        if (!(tree instanceof ObjectNode obj)) {
            throw ApiException.invalid("body", "must be a JSON object");
        }
        return new Body(obj, "").only(supported);
    }

    /** A body over an object already read (e.g. one element of an array), named {@code prefix} in errors. */
    public static Body of(JsonNode value, String name, Set<String> supported) {
        if (!(value instanceof ObjectNode obj)) {
            throw ApiException.invalid(name, "must be an object");
        }
        return new Body(obj, name + ".").only(supported);
    }

    /** 422: a field (or value) this surface does not support, named in the problem. */
    public static ApiException unsupported(String field, String detail) {
        return new ApiException(422, "unsupported-field", field, detail);
    }

    private Body only(Set<String> supported) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!supported.contains(e.getKey())) {
                String name = e.getKey().length() > 100 ? e.getKey().substring(0, 100) + "…" : e.getKey();
                throw unsupported(prefix + name, "Threadline does not support this field here; see docs/compatibility.md");
            }
        }
        return this;
    }

    /** The field's name as errors give it. */
    public String name(String field) {
        return prefix + field;
    }

    /** Whether the field is present and not null. */
    public boolean has(String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }

    /** The raw value, or null when absent or null. */
    public JsonNode node(String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    /** A nested object with only {@code supported} fields, or null when absent or null. */
    public Body object(String field, Set<String> supported) {
        JsonNode v = node(field);
        return v == null ? null : of(v, prefix + field, supported);
    }

    /** A string of at most {@code maxChars} (no NUL, valid Unicode), or null when absent or null. */
    public String string(String field, int maxChars) {
        JsonNode v = node(field);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.invalid(prefix + field, "must be a string");
        }
        return JsonBody.checked(prefix + field, v.textValue(), maxChars);
    }

    /** One of {@code allowed} (422 naming the field for a value outside them), or null when absent. */
    public String oneOf(String field, Set<String> allowed) {
        String s = string(field, 100);
        if (s != null && !allowed.contains(s)) {
            throw unsupported(prefix + field, "'" + s + "' is not supported; use one of " + allowed);
        }
        return s;
    }

    /** A boolean, or null when absent or null (400 naming the field for any other type, such as {@code "yes"}). */
    public Boolean bool(String field) {
        JsonNode v = node(field);
        if (v == null) {
            return null;
        }
        if (!v.isBoolean()) {
            throw ApiException.invalid(prefix + field, "must be true or false");
        }
        return v.booleanValue();
    }

    /** A whole number within {@code min..max}, or null when absent or null. */
    public Long integer(String field, long min, long max) {
        JsonNode v = node(field);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
            throw ApiException.invalid(prefix + field, "must be a whole number from " + min + " to " + max);
        }
        return v.longValue();
    }

    /**
     * An object of string values ({@code maxPairs} pairs, keys of at most {@code maxKey} and values of at
     * most {@code maxValue} characters), or null when absent. An explicit {@code null} is refused (400
     * naming the field): the frameworks' SDKs leave an unset {@code metadata} out rather than send null.
     */
    public Map<String, String> stringMap(String field, int maxPairs, int maxKey, int maxValue) {
        if (node.has(field) && node.get(field).isNull()) {
            throw ApiException.invalid(prefix + field, "must be an object of string values, not null");
        }
        JsonNode v = node(field);
        if (v == null) {
            return null;
        }
        if (!v.isObject()) {
            throw ApiException.invalid(prefix + field, "must be an object of string values");
        }
        if (v.size() > maxPairs) {
            throw ApiException.invalid(prefix + field, "must hold at most " + maxPairs + " pairs, has " + v.size());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            String key = JsonBody.checked(prefix + field, e.getKey(), maxKey);
            if (e.getValue().isNull()) {
                continue;
            }
            if (!e.getValue().isTextual()) {
                throw unsupported(prefix + field + "." + clip(key), "Threadline metadata holds strings only");
            }
            out.put(key, JsonBody.checked(prefix + field + "." + clip(key), e.getValue().textValue(), maxValue));
        }
        return out;
    }

    private static String clip(String s) {
        return s.length() > 64 ? s.substring(0, 64) + "…" : s;
    }
}
