package dev.threadline.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;

/**
 * Writes every problem document the server answers: on {@code /v1}, on the compatible surfaces (whose
 * {@link Shape} adds the OpenAI SDK's {@code error} member), and for Jetty's own refusals
 * ({@link JettyProblems}). One place sets the status, the {@code Retry-After} of a busy session or a
 * limit, the content type and the body. Stateless.
 */
public final class ProblemWriter {
    /** What a problem's body holds besides the RFC 9457 members, per surface. Implementations must be stateless. */
    @FunctionalInterface
    public interface Shape {
        /** The body for {@code problem}, written as JSON. */
        Object body(Problem problem);
    }

    /** The RFC 9457 document alone: {@code /v1} and the server's own routes. */
    public static final Shape RFC_9457 = p -> p;

    /**
     * The RFC 9457 document with the OpenAI SDK's {@code error} member ({@code message}, {@code type},
     * {@code param}, {@code code}) too, so that the SDKs of the compatible surfaces show the field at fault.
     */
    public static final Shape OPENAI_ERROR = p -> {
        ObjectNode o = (ObjectNode) Json.tree(p);
        ObjectNode e = o.putObject("error");
        e.put("message", p.detail());
        e.put("type", p.type().substring(p.type().lastIndexOf('/') + 1));
        if (p.field() != null) {
            e.put("param", p.field());
        } else {
            e.putNull("param");
        }
        e.put("code", p.status() == 422 ? "unsupported" : e.get("type").asText());
        return o;
    };

    private ProblemWriter() {}

    /**
     * Answers {@code problem} in {@code shape}, unless the response is already committed (a stream
     * reports its own errors). A busy session's 409 says {@code Retry-After: 1}, a limit's 429
     * {@code Retry-After: 5}.
     *
     * @return whether the problem was written
     */
    public static boolean write(Context ctx, Problem problem, Shape shape) {
        if (ctx.res().isCommitted()) {
            return false;
        }
        if (problem.status() == 409 && problem.type().endsWith("/session-busy")) {
            ctx.header("Retry-After", "1");
        } else if (problem.status() == 429) {
            ctx.header("Retry-After", "5");
        }
        ctx.status(problem.status()).contentType(Problem.CONTENT_TYPE).result(Json.write(shape.body(problem)) + "\n");
        return true;
    }

    /** The RFC 9457 body of {@code problem} as bytes, without the final newline: for Jetty's own answers. */
    static byte[] bytes(Problem problem) {
        return Json.write(RFC_9457.body(problem)).getBytes(StandardCharsets.UTF_8);
    }
}
