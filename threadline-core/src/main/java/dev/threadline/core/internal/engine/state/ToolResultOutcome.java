package dev.threadline.core.internal.engine.state;

import dev.threadline.core.runtime.Commit;
import dev.threadline.core.state.State;

/**
 * What became of a tool result handed to {@link StateManager#handleToolResult}: accepted (and
 * journalled), or refused because its tool_use id was not pending (late, duplicate, unknown), in
 * which case nothing changed. Both outcomes are immutable records.
 */
public sealed interface ToolResultOutcome {
    /** The result was recorded: the step that recorded it. */
    public record Accepted(Commit commit) implements ToolResultOutcome {
    }

    /** The result was refused (not pending: late, duplicate or unknown); {@code state} is the unchanged state. */
    public record Refused(String toolUseId, String reason, State state) implements ToolResultOutcome {
    }

    /** Whether the result was recorded. */
    public default boolean accepted() {
        return this instanceof Accepted;
    }
}
