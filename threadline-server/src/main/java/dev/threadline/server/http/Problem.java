package dev.threadline.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem document, with the field at fault as an extension member. Immutable.
 *
 * @param type   a URI naming the kind of problem ({@code https://threadline.dev/problems/<kind>})
 * @param title  the kind's fixed summary
 * @param status the HTTP status
 * @param detail what went wrong in this request, and what to do about it
 * @param field  the request field at fault, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field) {
    /** The media type problems are sent with. */
    public static final String MEDIA_TYPE = "application/problem+json";
    /** The {@code Content-Type} problems are sent with: the media type, in UTF-8 like every answer. */
    public static final String CONTENT_TYPE = MEDIA_TYPE + ";charset=utf-8";
    private static final String BASE = "https://threadline.dev/problems/";

    /** A problem of kind {@code kind} (e.g. {@code invalid-input}); the title is derived from the kind. */
    public static Problem of(int status, String kind, String detail, String field) {
        String title = Character.toUpperCase(kind.charAt(0)) + kind.substring(1).replace('-', ' ');
        return new Problem(BASE + kind, title, status, detail, field);
    }
}
