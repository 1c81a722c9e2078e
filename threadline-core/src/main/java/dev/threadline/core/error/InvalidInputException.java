package dev.threadline.core.error;

/** Input that Threadline refuses, naming the field at fault and why. Nothing was changed. */
public final class InvalidInputException extends ThreadlineException {
    private final String field;
    private final String reason;

    /** A refusal of {@code field} (a parameter, a config field or a JSON path) for {@code reason}. */
    public InvalidInputException(String field, String reason) {
        super("invalid " + field + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    /** The input at fault: a parameter name, a config field or a JSON path. */
    public String field() {
        return field;
    }

    /** Why it was refused, e.g. {@code must not be blank}. */
    public String reason() {
        return reason;
    }
}
