package dev.threadline.core.event;

import com.fasterxml.jackson.annotation.JsonValue;

/** What made a step: user input, the agent loop, an edit, a fork/rewind, or the runtime itself. Immutable. */
public enum CheckpointSource {
    /** A step a caller's command started: a user message, an approval, an answer. */
    INPUT,
    /** A step of the agent loop: a model reply, tool calls and their results. */
    LOOP,
    /** A typed edit, a clear or an on-demand compaction. */
    EDIT,
    /** The first step of a branch: a fork or a rewind. */
    FORK,
    /** A step the runtime took itself, e.g. closing a turn a crashed process left running. */
    SYSTEM;

    /** The name in lower case, made once (it is written with every stored message). */
    private final String wire = name().toLowerCase(java.util.Locale.ROOT);

    /** The stored form: the name in lower case ({@code input}, {@code loop}, ...). */
    @JsonValue
    public String wireName() {
        return wire;
    }

    /**
     * The source whose {@link #wireName()} is {@code name} (case-insensitive).
     *
     * @throws IllegalArgumentException when {@code name} names no source
     */
    public static CheckpointSource fromWire(String name) {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }
}
