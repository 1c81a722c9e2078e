package dev.threadline.core.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.threadline.core.error.InvalidInputException;

/** The one configured Jackson mapper Threadline uses for stored records and wire formats. */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.USE_DEFAULTS))
            .build();

    private Json() {}

    /** The shared mapper every Threadline record is written and read with; configure nothing on it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** A new, empty JSON object. */
    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /**
     * {@code value} as compact JSON text.
     *
     * @throws IllegalStateException when the value cannot be serialised (a bug, not bad input)
     */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Reads {@code json} as a {@code type}.
     *
     * @throws InvalidInputException naming the type when the text is malformed or does not fit it
     */
    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(type.getSimpleName(), "malformed JSON: " + e.getOriginalMessage());
        }
    }

    /** Parses any JSON text; malformed text is an {@link InvalidInputException} naming {@code field}. */
    public static JsonNode parse(String json, String field) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(field, "malformed JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Converts a JSON tree into a {@code type}.
     *
     * @throws InvalidInputException naming the type when the tree does not fit it
     */
    public static <T> T convert(JsonNode node, Class<T> type) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidInputException(type.getSimpleName(), e.getMessage());
        }
    }

    /** {@code value} as a JSON tree. */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
