package dev.threadline.server.compat;

import dev.threadline.core.error.SessionBusyException;
import dev.threadline.core.json.Json;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.Problem;
import dev.threadline.server.http.ProblemWriter;
import dev.threadline.server.http.Problems;
import io.javalin.http.Context;
import io.javalin.http.Handler;

/**
 * Errors of the compatible surfaces: every failure is an RFC 9457 problem (as on {@code /v1}) that
 * also carries the OpenAI SDK's {@code error} member ({@code message}, {@code type}, {@code param},
 * {@code code}), so each client shows the field at fault; {@link ProblemWriter} writes it in that
 * shape. Stateless.
 */
public final class Errors {
    private Errors() {}

    /** {@code handler}, with its failures answered as problems here (not by the server's generic mapping). */
    public static Handler guarded(Handler handler) {
        return ctx -> {
            try {
                handler.handle(ctx);
            } catch (Exception e) {
                write(ctx, e);
            }
        };
    }

    /** 404: no such thread, conversation or assistant for the caller's tenant (the same for another tenant's). */
    public static ApiException notFound(String what) {
        return new ApiException(404, "not-found", null, "no " + what + " with this id in your tenant");
    }

    /**
     * Answers every other route under {@code prefix} (registered last, so the surface's own routes win)
     * with a 422 naming the operation: an endpoint of the SDK that Threadline does not serve is refused
     * as clearly as a field, and not retried by the SDKs (as a 5xx would be).
     */
    public static void refuseTheRest(io.javalin.config.RoutesConfig r, String prefix) {
        Handler refuse = ctx -> write(ctx, new ApiException(422, "unsupported-endpoint", ctx.method().name() + " "
                + ctx.path().substring(prefix.length()), "Threadline does not serve this endpoint; see docs/compatibility.md"));
        r.get(prefix + "/*", refuse);
        r.post(prefix + "/*", refuse);
        r.put(prefix + "/*", refuse);
        r.patch(prefix + "/*", refuse);
        r.delete(prefix + "/*", refuse);
    }

    /**
     * Answers {@code error} as a problem with the OpenAI SDK's {@code error} member
     * ({@link ProblemWriter#OPENAI_ERROR}), unless the response was already committed (a stream reports its own).
     */
    public static void write(Context ctx, Throwable error) {
        ProblemWriter.write(ctx, problem(error), ProblemWriter.OPENAI_ERROR);
    }

    /** The problem for {@code error}: the server's mapping, and a 409 for a turn refused while another runs. */
    public static Problem problem(Throwable error) {
        if (error instanceof SessionBusyException b) {
            return Problem.of(409, "session-busy", Problems.of(new ApiException(409, "x", null, b.getMessage())).detail(),
                    "multitask_strategy");
        }
        return Problems.of(error);
    }

    /** Sends {@code value} as JSON with {@code status}. */
    public static void send(Context ctx, int status, Object value) {
        ctx.status(status).contentType(dev.threadline.server.http.Utf8Only.JSON).result(Json.write(value) + "\n");
    }
}
