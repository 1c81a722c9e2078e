package dev.threadline.core.model;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Who a transcript message is from. Tool results travel in a {@link #TOOL} message, the user-side
 * message that immediately follows the assistant message whose tool_use blocks it answers
 * (providers map it to their own wire form: Anthropic's user message, OpenAI's tool messages).
 */
public enum Role {
    /** A system message (Threadline keeps the system prompt in the session config, not in the transcript). */
    SYSTEM,
    /** A message from the user. */
    USER,
    /** A reply of the model: text, thinking and tool_use blocks. */
    ASSISTANT,
    /** The results of the tool calls of the assistant message before it. */
    TOOL;

    /** The name in lower case, made once (it is written with every stored message). */
    private final String wire = name().toLowerCase(java.util.Locale.ROOT);

    /** The stored form: the name in lower case. */
    @JsonValue
    public String wireName() {
        return wire;
    }
}
