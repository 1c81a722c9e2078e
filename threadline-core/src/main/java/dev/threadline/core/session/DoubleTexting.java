package dev.threadline.core.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.threadline.core.error.InvalidInputException;
import java.util.Locale;

/**
 * What a new user message does while a turn of the session is still running ("double texting").
 * Set per session in {@link SessionConfig#doubleTexting()} and per submit in the command options.
 * Immutable.
 */
public enum DoubleTexting {
    /** The message waits for the running turn to end, then runs (the default). */
    ENQUEUE,
    /** The message is refused with a {@code SessionBusyException} naming the running turn. */
    REJECT,
    /** The running turn ends as interrupted (its pending calls get cancelled results), then the message runs. */
    INTERRUPT,
    /**
     * The running turn is interrupted and set aside on a side branch (a fork at the checkpoint before
     * it); the message continues the session from that checkpoint, as if the turn had not happened.
     */
    ROLLBACK,
    /**
     * The message is journalled at once and given to the running turn's model at its next model call (after the
     * running tools finish), without ending the turn; if the turn ends before that call, the message starts the
     * next turn. The caller gets the result of the turn that answered it. Steering reaches a turn this process
     * runs; a message meeting a turn another process runs waits for it to end, as {@link #ENQUEUE} does.
     */
    STEER;

    /** The stored and command-line form: {@code enqueue}, {@code reject}, {@code interrupt}, {@code rollback}, {@code steer}. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a wire name (case-insensitive).
     *
     * @throws InvalidInputException naming the accepted values when {@code name} is none of them
     */
    @JsonCreator
    public static DoubleTexting fromWire(String name) {
        for (DoubleTexting d : values()) {
            if (d.wireName().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return d;
            }
        }
        throw new InvalidInputException("doubleTexting", "'" + name + "' is not one of enqueue, reject, interrupt, rollback, steer");
    }
}
