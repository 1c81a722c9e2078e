package dev.threadline.server.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a URI with bad UTF-8 or an ambiguous segment, headers over the limit, a request
 * line it cannot read), which never reach Javalin, answered as problem+json like every other error
 * instead of Jetty's HTML page. An HTTP version Jetty does not speak (HTTP/0.9, {@code HTTP/1.7}), which
 * Jetty answers 505, is answered 400 instead: the request is malformed, the server has not failed.
 * Stateless, so thread-safe.
 */
public final class JettyProblems extends ErrorHandler {

    @Override
    public boolean errorPageForMethod(String method) {
        return true; // Jetty's default answers DELETE and PUT with an empty body
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        int status = code == 505 ? 400 : code;
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problem.CONTENT_TYPE);
        response.write(true, body(status, code == 505), callback);
    }

    @Override
    @SuppressWarnings({"deprecation", "removal"}) // Jetty 12 still calls it for a request it cannot parse; there is no other hook
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, Problem.CONTENT_TYPE));
        return body(status, status == 505);
    }

    private static ByteBuffer body(int status, boolean badVersion) {
        Problem p = badVersion ? Problem.of(status, "bad-request", "the HTTP version is not one this server speaks; send HTTP/1.1", null)
                : status == 414 || status == 431
                ? Problem.of(status, "request-too-large", "the request line or headers are over the limit", null)
                : status >= 500 ? Problem.of(status, "internal-error", "the server failed", null)
                : Problem.of(status, "bad-request", "the request is malformed (its URI or headers could not be read)", null);
        return ByteBuffer.wrap(ProblemWriter.bytes(p));
    }
}
