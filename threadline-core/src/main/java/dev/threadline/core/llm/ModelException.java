package dev.threadline.core.llm;

import dev.threadline.core.error.ThreadlineException;
import java.util.Objects;

/**
 * The model call failed; {@code retryable} says whether trying again may help, {@link #kind()} says
 * what went wrong so the runtime can react (e.g. compact the context on {@link Kind#CONTEXT_TOO_LONG}).
 */
public final class ModelException extends ThreadlineException {

    /** What kind of failure this is. */
    public enum Kind {
        /** The API key is missing, wrong, or lacks permission. */
        AUTH,
        /** The model (or the endpoint) does not exist at this provider. */
        NOT_FOUND,
        /** The request does not fit the model's context window. */
        CONTEXT_TOO_LONG,
        /** Too many requests or tokens for the account's rate limit. */
        RATE_LIMITED,
        /** The provider is temporarily overloaded. */
        OVERLOADED,
        /** The provider failed with a server error. */
        SERVER,
        /** The provider refused the request as malformed. */
        BAD_REQUEST,
        /** The provider could not be reached, or the connection broke. */
        NETWORK,
        /** The provider did not answer in time. */
        TIMEOUT,
        /** The call was cancelled (the calling thread was interrupted). */
        CANCELLED,
        /** Anything else, e.g. a scripted model running out of replies. */
        OTHER
    }

    private final Kind kind;
    private final boolean retryable;

    /** A failure of {@code kind}, described by {@code message}, caused by {@code cause}. */
    public ModelException(String message, Kind kind, boolean retryable, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.retryable = retryable;
    }

    /** A failure of {@code kind}, described by {@code message}. */
    public ModelException(String message, Kind kind, boolean retryable) {
        this(message, kind, retryable, null);
    }

    /** A failure of kind {@link Kind#OTHER}, caused by {@code cause}. */
    public ModelException(String message, boolean retryable, Throwable cause) {
        this(message, Kind.OTHER, retryable, cause);
    }

    /** A failure of kind {@link Kind#OTHER}. */
    public ModelException(String message, boolean retryable) {
        this(message, Kind.OTHER, retryable, null);
    }

    /** Whether the same call may succeed when tried again (rate limits, overload, network). */
    public boolean retryable() {
        return retryable;
    }

    /** What kind of failure this is. */
    public Kind kind() {
        return kind;
    }
}
