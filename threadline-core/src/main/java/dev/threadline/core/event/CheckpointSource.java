package dev.threadline.core.event;

import com.fasterxml.jackson.annotation.JsonValue;

/** What made a step: user input, the agent loop, an edit, a fork/rewind, or the runtime itself. */
public enum CheckpointSource {
    INPUT, LOOP, EDIT, FORK, SYSTEM;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static CheckpointSource fromWire(String name) {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }
}
