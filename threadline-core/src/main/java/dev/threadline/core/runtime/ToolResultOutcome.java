package dev.threadline.core.runtime;

import dev.threadline.core.state.State;

/**
 * What became of a tool result handed to {@link StateManager#handleToolResult}: accepted (and
 * journalled), or refused because its tool_use id was not pending (late, duplicate, unknown), in
 * which case nothing changed.
 */
public sealed interface ToolResultOutcome {
    record Accepted(Commit commit) implements ToolResultOutcome {
    }

    record Refused(String toolUseId, String reason, State state) implements ToolResultOutcome {
    }

    default boolean accepted() {
        return this instanceof Accepted;
    }
}
