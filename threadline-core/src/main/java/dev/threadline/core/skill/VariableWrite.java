package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Require;
import dev.threadline.core.state.VariableScope;

/** A proposed variable change: set {@code name} to {@code value} in {@code scope}, or remove it when value is null. */
public record VariableWrite(VariableScope scope, String name, JsonNode value) {
    public VariableWrite {
        Require.nonNull(scope, "scope");
        Require.nonBlank(name, "name");
    }

    public static VariableWrite set(VariableScope scope, String name, JsonNode value) {
        return new VariableWrite(scope, name, Require.nonNull(value, "value"));
    }

    public static VariableWrite remove(VariableScope scope, String name) {
        return new VariableWrite(scope, name, null);
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isRemoval() {
        return value == null;
    }
}
