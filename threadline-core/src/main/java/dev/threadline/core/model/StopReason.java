package dev.threadline.core.model;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why the model stopped producing an assistant message. */
public enum StopReason {
    END_TURN, TOOL_USE, MAX_TOKENS, STOP_SEQUENCE, REFUSAL;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
