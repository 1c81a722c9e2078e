package dev.threadline.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.state.VariableScope;
import java.util.List;
import java.util.Map;

/**
 * A change to shared variables applied with an append: {@code scope} is USER or APP, {@code key}
 * says whose ({@link #userKey} / {@link #appKey}).
 */
public record ScopedWrite(VariableScope scope, String key, Map<String, JsonNode> set, List<String> removed) {
    public ScopedWrite {
        Require.argument(scope == VariableScope.USER || scope == VariableScope.APP, "scope",
                "only user and app variables are stored apart from the journal, not " + scope);
        Require.nonBlank(key, "key");
        set = set == null ? Map.of() : Map.copyOf(set);
        removed = removed == null ? List.of() : List.copyOf(removed);
    }

    /** The key of the user scope of {@code userId} in {@code tenant}. */
    public static String userKey(String tenant, String userId) {
        return tenant + "/" + userId;
    }

    /** The key of the app scope of {@code tenant}. */
    public static String appKey(String tenant) {
        return tenant;
    }
}
