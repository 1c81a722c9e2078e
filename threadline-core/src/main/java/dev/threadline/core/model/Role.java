package dev.threadline.core.model;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Who a transcript message is from. Tool results travel in a {@link #TOOL} message, the user-side
 * message that immediately follows the assistant message whose tool_use blocks it answers
 * (providers map it to their own wire form: Anthropic's user message, OpenAI's tool messages).
 */
public enum Role {
    SYSTEM, USER, ASSISTANT, TOOL;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
