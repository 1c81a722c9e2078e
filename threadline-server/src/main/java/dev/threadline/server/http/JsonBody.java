package dev.threadline.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request body: one JSON object whose fields are read with their types checked. Every refusal is an
 * {@link ApiException} (400) naming the field; fields the endpoint does not know are refused too, so a
 * typo is never silently ignored (by {@link #UNKNOWN}, or by the refusal a surface gives, such as the
 * compatible surfaces' 422). An empty body (no bytes) reads as {@code {}}; whitespace alone is refused. Not
 * thread-safe (one per request).
 */
public final class JsonBody {
    /** How a body refuses a field its endpoint does not take; the exception names the field. Implementations are stateless and thread-safe. */
    @FunctionalInterface
    public interface UnknownField {
        /** The refusal of the field {@code name} (its full name, prefix included) where only {@code allowed} are taken. */
        ApiException refuse(String name, Set<String> allowed);
    }

    /** The native API's refusal: 400 naming the field and the fields the endpoint takes. */
    public static final UnknownField UNKNOWN = (name, allowed) -> ApiException.invalid(name, "unknown field; this endpoint takes " + allowed);

    private final ObjectNode node;
    private final String prefix;
    private final UnknownField unknown;

    private JsonBody(ObjectNode node, String prefix, UnknownField unknown) {
        this.node = node;
        this.prefix = prefix;
        this.unknown = unknown;
    }

    /**
     * Parses {@code bytes} (UTF-8 only, as {@link Utf8Only#text} requires) and checks that only {@code allowed} fields are present.
     *
     * @throws ApiException when the body is not UTF-8, not a JSON object, or holds an unknown field
     */
    public static JsonBody parse(byte[] bytes, Set<String> allowed) {
        return parse(bytes, allowed, UNKNOWN);
    }

    /**
     * Like {@link #parse(byte[], Set)}, with {@code unknown} refusing the fields outside {@code allowed} (here and in nested objects).
     *
     * @throws ApiException when the body is not UTF-8, not a JSON object, or holds an unknown field
     */
    public static JsonBody parse(byte[] bytes, Set<String> allowed, UnknownField unknown) {
        if (bytes.length == 0) {
            return new JsonBody(Json.object(), "", unknown);
        }
        JsonNode tree;
        try {
            tree = Json.mapper().readTree(Utf8Only.text(bytes, "body")); // UTF-8 only: Jackson would guess UTF-16 and -32
        } catch (JsonProcessingException e) {
            throw ApiException.invalid("body", "malformed JSON: " + Problems.clip(e.getOriginalMessage()));
        }
        if (tree == null || tree.isMissingNode()) {
            throw ApiException.invalid("body", "holds no JSON value; send a JSON object, or no body at all");
        }
        if (!(tree instanceof ObjectNode obj)) {
            throw ApiException.invalid("body", "must be a JSON object, was " + tree.getNodeType().name().toLowerCase());
        }
        return new JsonBody(obj, "", unknown).only(allowed);
    }

    /**
     * A body over a value already read (such as one element of an array), its fields named {@code name.field}.
     *
     * @throws ApiException when the value is not an object, or holds a field outside {@code allowed}
     */
    public static JsonBody of(JsonNode value, String name, Set<String> allowed, UnknownField unknown) {
        if (!(value instanceof ObjectNode obj)) {
            throw ApiException.invalid(name, "must be an object");
        }
        return new JsonBody(obj, name + ".", unknown).only(allowed);
    }

    private JsonBody only(Set<String> allowed) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!allowed.contains(name)) {
                throw unknown.refuse(prefix + Problems.clip(name), allowed);
            }
        }
        return this;
    }

    /** Whether the field is sent at all, null included. */
    public boolean present(String field) {
        return node.has(field);
    }

    /** A nested object field, or null when absent or null; it may hold only {@code allowed} fields. */
    public JsonBody object(String field, Set<String> allowed) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        return of(v, prefix + field, allowed, unknown);
    }

    /** A field's JSON value as sent (any type), or null when absent or null. */
    public JsonNode value(String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    /** A boolean field, or {@code fallback} when absent or null. */
    public boolean bool(String field, boolean fallback) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isBoolean()) {
            throw ApiException.invalid(prefix + field, "must be true or false");
        }
        return v.booleanValue();
    }

    /** An array of objects, each with only {@code allowed} fields (named {@code field[i].name} when wrong), or null when absent. */
    public List<JsonBody> objects(String field, int maxItems, Set<String> allowed) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray() || v.size() > maxItems) {
            throw ApiException.invalid(prefix + field, "must be an array of at most " + maxItems + " objects");
        }
        List<JsonBody> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            if (!(v.get(i) instanceof ObjectNode obj)) {
                throw ApiException.invalid(prefix + field + "[" + i + "]", "must be an object");
            }
            out.add(new JsonBody(obj, prefix + field + "[" + i + "].", unknown).only(allowed));
        }
        return out;
    }

    /** The name this body's fields are reported under ({@code edits[0].} for an item; empty for the body). */
    public String prefix() {
        return prefix;
    }

    /** A string field of at most {@code maxChars} characters (no NUL), or null when absent or null. */
    public String string(String field, int maxChars) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.invalid(prefix + field, "must be a string");
        }
        return checked(prefix + field, v.textValue(), maxChars);
    }

    /** A required string field. */
    public String requiredString(String field, int maxChars) {
        String s = string(field, maxChars);
        if (s == null) {
            throw ApiException.invalid(prefix + field, "is required");
        }
        return s;
    }

    /** A whole-number field within {@code min..max}, or null when absent or null. */
    public Long integer(String field, long min, long max) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
            throw ApiException.invalid(prefix + field, "must be a whole number from " + min + " to " + max);
        }
        return v.longValue();
    }

    /** A list of strings, or null when absent or null. */
    public List<String> strings(String field, int maxItems, int maxChars) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray() || v.size() > maxItems) {
            throw ApiException.invalid(prefix + field, "must be an array of at most " + maxItems + " strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : v) {
            if (!item.isTextual()) {
                throw ApiException.invalid(prefix + field, "must hold only strings");
            }
            out.add(checked(prefix + field, item.textValue(), maxChars));
        }
        return out;
    }

    /** An object of string values, or null when absent or null. */
    public Map<String, String> stringMap(String field, int maxPairs, int maxChars) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isObject() || v.size() > maxPairs) {
            throw ApiException.invalid(prefix + field, "must be an object of at most " + maxPairs + " string values");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            checked(prefix + field, e.getKey(), maxChars);
            if (!e.getValue().isTextual()) {
                throw ApiException.invalid(prefix + field + "." + Problems.clip(e.getKey()), "must be a string");
            }
            out.put(e.getKey(), checked(prefix + field, e.getValue().textValue(), maxChars));
        }
        return out;
    }

    /** Refuses text over the limit, NUL characters and unpaired surrogates (which no UTF-8 store can keep). */
    public static String checked(String field, String s, int maxChars) {
        if (s.length() > maxChars) {
            throw ApiException.invalid(field, "must be at most " + maxChars + " characters, was " + s.length());
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\0') {
                throw ApiException.invalid(field, "must not contain NUL characters");
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw ApiException.invalid(field, "must be valid Unicode (it holds an unpaired surrogate)");
            }
        }
        return s;
    }
}
