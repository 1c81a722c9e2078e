package dev.threadline.core.llm;

import dev.threadline.core.ThreadlineException;

/** The model call failed; {@code retryable} says whether trying again may help. */
public final class ModelException extends ThreadlineException {
    private final boolean retryable;

    public ModelException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public ModelException(String message, boolean retryable) {
        this(message, retryable, null);
    }

    public boolean retryable() {
        return retryable;
    }
}
