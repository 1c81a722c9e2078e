package dev.threadline.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
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
    /** A field the surface does not take: 422 naming it. */
    private static final JsonBody.UnknownField UNSUPPORTED =
            (name, allowed) -> unsupported(name, "Threadline does not support this field here; see docs/compatibility.md");

    private final JsonBody body;

    private Body(JsonBody body) {
        this.body = body;
    }

    /**
     * Parses {@code bytes} (UTF-8 JSON; no bytes read as {@code {}}) and refuses fields outside {@code supported}.
     *
     * @throws ApiException 400 when the body is not a JSON object, 422 naming an unsupported field
     */
    public static Body parse(byte[] bytes, Set<String> supported) {
        return new Body(JsonBody.parse(bytes, supported, UNSUPPORTED));
    }

    /**
     * A body over an object already read (e.g. one element of an array), named {@code prefix} in errors.
     *
     * @throws ApiException 400 when the value is not an object, 422 naming an unsupported field
     */
    public static Body of(JsonNode value, String name, Set<String> supported) {
        return new Body(JsonBody.of(value, name, supported, UNSUPPORTED));
    }

    /** 422: a field (or value) this surface does not support, named in the problem. */
    public static ApiException unsupported(String field, String detail) {
        return new ApiException(422, "unsupported-field", field, detail);
    }

    /** The field's name as errors give it. */
    public String name(String field) {
        return body.prefix() + field;
    }

    /** Whether the field is present and not null. */
    public boolean has(String field) {
        return body.value(field) != null;
    }

    /** The raw value, or null when absent or null. */
    public JsonNode node(String field) {
        return body.value(field);
    }

    /**
     * A nested object with only {@code supported} fields, or null when absent or null.
     *
     * @throws ApiException 400 when the value is not an object, 422 naming an unsupported field
     */
    public Body object(String field, Set<String> supported) {
        JsonBody nested = body.object(field, supported);
        return nested == null ? null : new Body(nested);
    }

    /**
     * A string of at most {@code maxChars} (no NUL, valid Unicode), or null when absent or null.
     *
     * @throws ApiException 400 naming the field when the value is not such a string
     */
    public String string(String field, int maxChars) {
        return body.string(field, maxChars);
    }

    /** One of {@code allowed} (422 naming the field for a value outside them), or null when absent. */
    public String oneOf(String field, Set<String> allowed) {
        String s = string(field, 100);
        if (s != null && !allowed.contains(s)) {
            throw unsupported(name(field), "'" + s + "' is not supported; use one of " + allowed);
        }
        return s;
    }

    /**
     * A boolean, or null when absent or null.
     *
     * @throws ApiException 400 naming the field for any other type, such as {@code "yes"}
     */
    public Boolean bool(String field) {
        return has(field) ? body.bool(field, false) : null;
    }

    /**
     * A whole number within {@code min..max}, or null when absent or null.
     *
     * @throws ApiException 400 naming the field for anything else
     */
    public Long integer(String field, long min, long max) {
        return body.integer(field, min, max);
    }

    /**
     * An object of string values ({@code maxPairs} pairs, keys of at most {@code maxKey} and values of at
     * most {@code maxValue} characters), or null when absent. An explicit {@code null} is refused (400
     * naming the field): the frameworks' SDKs leave an unset {@code metadata} out rather than send null.
     */
    public Map<String, String> stringMap(String field, int maxPairs, int maxKey, int maxValue) {
        if (body.present(field) && !has(field)) {
            throw ApiException.invalid(name(field), "must be an object of string values, not null");
        }
        JsonNode v = node(field);
        if (v == null) {
            return null;
        }
        if (!v.isObject()) {
            throw ApiException.invalid(name(field), "must be an object of string values");
        }
        if (v.size() > maxPairs) {
            throw ApiException.invalid(name(field), "must hold at most " + maxPairs + " pairs, has " + v.size());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            String key = JsonBody.checked(name(field), e.getKey(), maxKey);
            if (e.getValue().isNull()) {
                continue;
            }
            if (!e.getValue().isTextual()) {
                throw unsupported(name(field) + "." + clip(key), "Threadline metadata holds strings only");
            }
            out.put(key, JsonBody.checked(name(field) + "." + clip(key), e.getValue().textValue(), maxValue));
        }
        return out;
    }

    private static String clip(String s) {
        return s.length() > 64 ? s.substring(0, 64) + "…" : s;
    }
}
