package dev.threadline.server.http;

import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The server speaks UTF-8 only. Requests: a body must be UTF-8 without a byte order mark (and, being
 * JSON, holds no NUL byte, which is how UTF-16 and UTF-32 text looks), and a {@code Content-Type} may
 * declare no charset but UTF-8; anything else is refused with a 400 before any route reads the body,
 * so it changes nothing. Responses: every textual body is UTF-8 and says {@code charset=utf-8}.
 * Stateless.
 */
public final class Utf8Only {
    /** The content type of every JSON answer. */
    public static final String JSON = "application/json;charset=utf-8";

    private Utf8Only() {}

    /**
     * The most of a refused body the server reads and discards before answering 413 (Tomcat's
     * {@code maxSwallowSize} does the same, with 2 MiB). A client that sends its whole body before
     * reading the answer, as the JDK's HttpClient does, would otherwise find the connection closed
     * under it mid-upload and never see the 413: the answer is lost to the reset. Past this the
     * connection is closed at once; a client sending more should ask with {@code Expect: 100-continue}.
     */
    static final long SWALLOW_BYTES = 8L << 20;

    /**
     * A before-handler: refuses a request whose declared {@code Content-Length} is over
     * {@code maxBodyBytes} (413, without parsing it: Javalin would read up to the limit and log a WARN
     * per such request, a line at a client's request rate), then checks it as {@link #check(Context)}.
     * The refused body is discarded, up to {@link #SWALLOW_BYTES}, so the client can read the answer;
     * with {@code Expect: 100-continue} it is never asked for.
     *
     * @throws HttpResponseException 413
     * @throws ApiException 400 naming {@code Content-Type} or {@code body}
     */
    public static void check(Context ctx, long maxBodyBytes) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > maxBodyBytes) {
            ctx.header("Connection", "close");
            if (declared <= SWALLOW_BYTES && !"100-continue".equalsIgnoreCase(ctx.header("Expect"))) {
                swallow(ctx, declared);
            }
            throw new HttpResponseException(HttpStatus.CONTENT_TOO_LARGE.getCode(), "");
        }
        check(ctx);
    }

    private static void swallow(Context ctx, long declared) {
        try (java.io.InputStream in = ctx.req().getInputStream()) {
            byte[] buffer = new byte[64 << 10];
            long left = declared;
            for (int n; left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0; ) {
                left -= n;
            }
        } catch (java.io.IOException gone) {
            // the client stopped sending; the answer is still attempted
        }
    }

    /**
     * A before-handler: refuses a request whose {@code Content-Type} declares a charset other than
     * UTF-8, or whose body is not UTF-8 as {@link #text} requires.
     *
     * @throws ApiException 400 naming {@code Content-Type} or {@code body}
     */
    public static void check(Context ctx) {
        String type = ctx.header("Content-Type");
        if (type != null) {
            for (String param : type.split(";")) {
                int eq = param.indexOf('=');
                if (eq > 0 && param.substring(0, eq).strip().equalsIgnoreCase("charset")) {
                    String charset = param.substring(eq + 1).strip().replace("\"", "");
                    if (!charset.equalsIgnoreCase("utf-8")) {
                        throw ApiException.invalid("Content-Type", "declares a charset other than UTF-8; this server takes UTF-8 only "
                                + "(say charset=utf-8, or no charset)");
                    }
                }
            }
        }
        if (ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null) {
            text(ctx.bodyAsBytes(), "body"); // read once: Javalin keeps the bytes for the route
        }
    }

    /**
     * {@code bytes} decoded as UTF-8, refusing what is not: a byte order mark, a NUL byte (UTF-16 or
     * UTF-32 text), or a malformed sequence.
     *
     * @throws ApiException 400 naming {@code field}
     */
    public static String text(byte[] bytes, String field) {
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            throw ApiException.invalid(field, "starts with a byte order mark; send UTF-8 without one");
        }
        if (bytes.length >= 2 && ((bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF
                || (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE)) {
            throw ApiException.invalid(field, "starts with a UTF-16 or UTF-32 byte order mark; send UTF-8 without one");
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw ApiException.invalid(field, "holds a NUL byte at offset " + i + " (is it UTF-16 or UTF-32?); send UTF-8");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw ApiException.invalid(field, "is not valid UTF-8; send UTF-8");
        }
    }
}
