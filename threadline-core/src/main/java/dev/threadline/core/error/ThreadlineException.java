package dev.threadline.core.error;

/**
 * Root of every error Threadline raises. Each subclass carries the fields that name what went wrong,
 * and its message says what to do about it.
 */
public class ThreadlineException extends RuntimeException {
    /** An error whose {@code message} says what went wrong and what to do. */
    public ThreadlineException(String message) {
        super(message);
    }

    /** An error whose {@code message} says what went wrong and what to do, caused by {@code cause}. */
    public ThreadlineException(String message, Throwable cause) {
        super(message, cause);
    }
}
