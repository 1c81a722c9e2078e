package dev.threadline.core.state;

import com.fasterxml.jackson.annotation.JsonValue;

/** Execution status of a session: idle between turns, running during one. */
public enum SessionStatus {
    IDLE, RUNNING;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
