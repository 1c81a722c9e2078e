package dev.threadline.chatmemory;

import java.util.Objects;

/**
 * A system message of a memory's view, placed before the transcript message at {@code offset} from the view's
 * start (at the end when no message is there). Immutable.
 *
 * @param offset the place, counted from the view's start
 * @param text   the system message's text
 */
public record SystemPlacement(int offset, String text) {
    /**
     * Checks the text.
     *
     * @throws NullPointerException when the text is null
     */
    public SystemPlacement {
        Objects.requireNonNull(text, "text");
    }
}
