package dev.threadline.core;

/** Input that Threadline refuses, naming the field at fault and why. Nothing was changed. */
public final class InvalidInputException extends ThreadlineException {
    private final String field;
    private final String reason;

    public InvalidInputException(String field, String reason) {
        super("invalid " + field + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
