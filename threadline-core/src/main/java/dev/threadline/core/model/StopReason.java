package dev.threadline.core.model;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why the model stopped producing an assistant message. */
public enum StopReason {
    /** The model finished its reply. */
    END_TURN,
    /** The model asks for tool calls and waits for their results. */
    TOOL_USE,
    /** The reply hit the output token limit. */
    MAX_TOKENS,
    /** The reply hit a stop sequence. */
    STOP_SEQUENCE,
    /** The model refused to answer. */
    REFUSAL;

    /** The name in lower case, made once (it is written with every stored message). */
    private final String wire = name().toLowerCase(java.util.Locale.ROOT);

    /** The stored form: the name in lower case. */
    @JsonValue
    public String wireName() {
        return wire;
    }
}
