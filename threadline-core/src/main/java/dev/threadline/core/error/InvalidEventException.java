package dev.threadline.core.error;

/**
 * An event that cannot follow the state it was applied to (a tool result for a call that is not
 * pending, a user message while tool calls are unanswered, ...). Raised before anything is written.
 */
public final class InvalidEventException extends ThreadlineException {
    private final String eventType;

    /** A refusal of an event of type {@code eventType}, saying why it cannot follow the state. */
    public InvalidEventException(String eventType, String reason) {
        super(eventType + " refused: " + reason);
        this.eventType = eventType;
    }

    /** The type of the refused event, e.g. {@code ToolCallCompleted}. */
    public String eventType() {
        return eventType;
    }
}
