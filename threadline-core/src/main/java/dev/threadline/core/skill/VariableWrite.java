package dev.threadline.core.skill;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.threadline.core.error.Require;
import dev.threadline.core.state.VariableScope;
import java.util.Locale;

/**
 * A proposed variable change: set {@code name} to {@code value}, remove it, or append {@code value}
 * as one element to the JSON array it holds. The runtime applies a result's writes, in order, to the
 * variables as they are when the result is recorded (not as the skill saw them), so appends of
 * parallel tool calls to one variable are all kept. Immutable and thread-safe (provided no one
 * mutates the {@link JsonNode} values).
 *
 * @param scope where the variable lives
 * @param name  the variable
 * @param kind  what the write does
 * @param value the new value (SET), the element to append (APPEND), or null (REMOVE)
 */
public record VariableWrite(VariableScope scope, String name, Kind kind, JsonNode value) {

    /** What a write does to its variable. */
    public enum Kind {
        /** Replace the value (or create the variable). */
        SET,
        /** Delete the variable (nothing happens when it does not exist). */
        REMOVE,
        /** Add one element at the end of the JSON array the variable holds; a missing variable becomes a one-element array. */
        APPEND
    }

    /**
     * Checks the components.
     *
     * @throws dev.threadline.core.error.InvalidInputException if scope or kind is missing, the name is blank, or
     *                                                   the value is missing for SET/APPEND or present for REMOVE
     */
    public VariableWrite {
        Require.nonNull(scope, "scope");
        Require.nonBlank(name, "name");
        Require.nonNull(kind, "kind");
        Require.argument((value == null) == (kind == Kind.REMOVE), "value",
                kind == Kind.REMOVE ? "a removal carries no value" : "a " + kind.name().toLowerCase(Locale.ROOT) + " of '" + name + "' needs a value");
    }

    /** The former form: a removal when {@code value} is null, else a set. */
    public VariableWrite(VariableScope scope, String name, JsonNode value) {
        this(scope, name, value == null ? Kind.REMOVE : Kind.SET, value);
    }

    /** Sets {@code name} to {@code value} in {@code scope}. */
    public static VariableWrite set(VariableScope scope, String name, JsonNode value) {
        return new VariableWrite(scope, name, Kind.SET, Require.nonNull(value, "value"));
    }

    /** Removes {@code name} from {@code scope}. */
    public static VariableWrite remove(VariableScope scope, String name) {
        return new VariableWrite(scope, name, Kind.REMOVE, null);
    }

    /** Appends {@code element} to the JSON array {@code name} holds in {@code scope} (creating it when missing). */
    public static VariableWrite append(VariableScope scope, String name, JsonNode element) {
        return new VariableWrite(scope, name, Kind.APPEND, Require.nonNull(element, "element"));
    }

    /** Whether this write removes the variable. */
    @JsonIgnore
    public boolean isRemoval() {
        return kind == Kind.REMOVE;
    }

    /** Whether this write appends to a list variable instead of replacing it. */
    @JsonIgnore
    public boolean isAppend() {
        return kind == Kind.APPEND;
    }

    /**
     * The variable's value after this write, given its value before ({@code null} when missing);
     * {@code null} means removed. Pure: {@code current} is not modified (an append returns a new array
     * sharing the elements).
     *
     * @throws IllegalArgumentException for an append to a value that is not a JSON array, naming the
     *                                  variable and what it holds
     */
    public JsonNode applyTo(JsonNode current) {
        return switch (kind) {
            case SET -> value;
            case REMOVE -> null;
            case APPEND -> {
                if (current == null) {
                    yield JsonNodeFactory.instance.arrayNode(1).add(value);
                }
                if (!(current instanceof ArrayNode array)) {
                    throw new IllegalArgumentException("cannot append to the " + scope.wireName() + " variable '" + name + "': it holds " + current.getNodeType().name().toLowerCase(Locale.ROOT)
                            + ", not an array");
                }
                ArrayNode out = JsonNodeFactory.instance.arrayNode(array.size() + 1);
                out.addAll(array);
                yield out.add(value);
            }
        };
    }
}
