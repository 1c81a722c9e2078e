package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.state.VariableScope;
import java.util.ArrayList;
import java.util.List;

/**
 * What a skill returns: the content the model sees, whether it is an error, and the variable writes
 * it proposes (applied by the runtime, in the same step as the result).
 */
public record SkillResult(String content, boolean isError, List<VariableWrite> writes) {

    public SkillResult {
        Require.nonNull(content, "content");
        writes = writes == null ? List.of() : List.copyOf(writes);
    }

    /** A successful result with {@code content} and no variable writes. */
    public static SkillResult ok(String content) {
        return new SkillResult(content, false, List.of());
    }

    /** An error result with {@code content} the model sees, and no variable writes. */
    public static SkillResult error(String content) {
        return new SkillResult(content, true, List.of());
    }

    /** A copy that also sets {@code name} to {@code value} in {@code scope}, replacing what it holds when recorded. */
    public SkillResult withWrite(VariableScope scope, String name, JsonNode value) {
        List<VariableWrite> w = new ArrayList<>(writes);
        w.add(VariableWrite.set(scope, name, value));
        return new SkillResult(content, isError, w);
    }

    /**
     * A copy that also appends {@code element} to the JSON array {@code name} holds in {@code scope}
     * (creating it when missing). Unlike a set computed from the value the skill saw, appends of tool
     * calls running in parallel are all kept: each applies to the value as it is when its result is
     * recorded. Appending to a value that is not an array makes the call's recorded result an error.
     */
    public SkillResult withAppend(VariableScope scope, String name, JsonNode element) {
        List<VariableWrite> w = new ArrayList<>(writes);
        w.add(VariableWrite.append(scope, name, element));
        return new SkillResult(content, isError, w);
    }

    /** A copy that also removes {@code name} from {@code scope}. */
    public SkillResult withRemoval(VariableScope scope, String name) {
        List<VariableWrite> w = new ArrayList<>(writes);
        w.add(VariableWrite.remove(scope, name));
        return new SkillResult(content, isError, w);
    }
}
