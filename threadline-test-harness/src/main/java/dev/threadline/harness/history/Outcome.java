package dev.threadline.harness.history;

import java.util.Locale;

/**
 * What a client learned about one of its operations. The checker derives what the journal may hold
 * from it: an {@link #OK} submission exactly once, an {@link #UNKNOWN} one at most once, a
 * {@link #FAILED} one never.
 */
public enum Outcome {
    /** The call returned normally: its effects are durable. */
    OK,
    /** The call reported that nothing was written (for example the session was leased elsewhere). */
    FAILED,
    /** The client cannot tell: the call threw mid-way, or its process was killed while it ran. */
    UNKNOWN;

    /** The lower-case name used in child-process output lines. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The outcome of a wire name.
     *
     * @throws IllegalArgumentException when the name is none of ok, failed, unknown
     */
    public static Outcome fromWire(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
