package dev.threadline.server.http;

/**
 * A refusal the server itself makes (bad request syntax, no key, an unknown route, a limit), answered
 * as problem+json with this status. The detail never repeats request content beyond the field name.
 * Immutable.
 */
public final class ApiException extends RuntimeException {
    private final int status;
    private final String type;
    private final String field;

    /**
     * A refusal answered with {@code status} and a problem+json body.
     *
     * @param status the HTTP status
     * @param type   the problem type's last path part, e.g. {@code invalid-input}
     * @param field  the field at fault, or null
     * @param detail what is wrong and what to do
     */
    public ApiException(int status, String type, String field, String detail) {
        super(detail);
        this.status = status;
        this.type = type;
        this.field = field;
    }

    /** 400: a field of the request is wrong. */
    public static ApiException invalid(String field, String detail) {
        return new ApiException(400, "invalid-input", field, detail);
    }

    /** 404: no session with this id for the caller's tenant (the same for another tenant's session). */
    public static ApiException noSession() {
        return new ApiException(404, "session-not-found", "id", "no session with this id in your tenant");
    }

    /** The HTTP status of the answer. */
    public int status() {
        return status;
    }

    /** The problem type's last path part, e.g. {@code invalid-input}. */
    public String type() {
        return type;
    }

    /** The field at fault, or null. */
    public String field() {
        return field;
    }
}
