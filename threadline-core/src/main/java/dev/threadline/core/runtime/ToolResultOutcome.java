package dev.threadline.core.runtime;

import dev.threadline.core.state.State;

/**
 * What became of a tool result handed to {@link StateManager#handleToolResult}: accepted (and
 * journalled), or refused because its tool_use id was not pending (late, duplicate, unknown), in
 * which case nothing changed. Both outcomes are immutable records.
 */
public sealed interface ToolResultOutcome {
    /** The result was recorded: the step that recorded it. */
    record Accepted(Commit commit) implements ToolResultOutcome {
    }

    /** The result was refused (not pending: late, duplicate or unknown); {@code state} is the unchanged state. */
    record Refused(String toolUseId, String reason, State state) implements ToolResultOutcome {
    }

    /** Whether the result was recorded. */
    default boolean accepted() {
        return this instanceof Accepted;
    }
}
