package dev.threadline.core;

/**
 * Root of every error Threadline raises. Each subclass carries the fields that name what went wrong,
 * and its message says what to do about it.
 */
public class ThreadlineException extends RuntimeException {
    public ThreadlineException(String message) {
        super(message);
    }

    public ThreadlineException(String message, Throwable cause) {
        super(message, cause);
    }
}
