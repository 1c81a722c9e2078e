package dev.threadline.core.runtime;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;

/**
 * What {@link Session#replay} runs again: the session's user turns whose message is at a seq within
 * {@code fromSeq..toSeq}, on {@code model}. Immutable.
 *
 * @param model     the model the replay runs on (a name the runtime's models resolve, as a session's config names one)
 * @param fromSeq   the first seq whose user turn is replayed (0 or 1: from the first turn)
 * @param toSeq     the last seq whose user turn is replayed (0: to the session's head)
 * @param liveTools whether a call with no recorded match may run its skill when the skill is read-only or
 *                  idempotent and needs no person; off (the default), every unmatched call gets an error result
 */
public record ReplayRequest(String model, long fromSeq, long toSeq, boolean liveTools) {

    /** @throws InvalidInputException naming the field: a blank model, a negative seq, or {@code fromSeq} after {@code toSeq} */
    public ReplayRequest {
        Require.nonBlank(model, "model");
        if (fromSeq < 0) {
            throw new InvalidInputException("fromSeq", "must not be negative, was " + fromSeq);
        }
        if (toSeq < 0) {
            throw new InvalidInputException("toSeq", "must not be negative, was " + toSeq);
        }
        if (toSeq > 0 && fromSeq > toSeq) {
            throw new InvalidInputException("fromSeq", "must not be after toSeq (" + fromSeq + " > " + toSeq + ")");
        }
    }

    /**
     * Every user turn of the session, on {@code model}, live tools off.
     *
     * @throws InvalidInputException when the model is blank
     */
    public static ReplayRequest onModel(String model) {
        return new ReplayRequest(model, 0, 0, false);
    }

    /**
     * A copy replaying only the user turns at seqs {@code fromSeq..toSeq} (0 for the head).
     *
     * @throws InvalidInputException as the constructor does
     */
    public ReplayRequest range(long fromSeq, long toSeq) {
        return new ReplayRequest(model, fromSeq, toSeq, liveTools);
    }

    /** A copy with live tools on or off. */
    public ReplayRequest liveTools(boolean on) {
        return new ReplayRequest(model, fromSeq, toSeq, on);
    }
}
