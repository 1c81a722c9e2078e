package dev.threadline.server.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;

/**
 * The one server-sent-event framing of every surface ({@code /v1} turns and observers, the compatible
 * surfaces' runs): the response's headers, events as {@code id:} (when given), {@code event:} and one
 * {@code data:} line, comment lines (the opening one and heartbeats), each flushed at once; and whether
 * the client has gone. Not thread-safe: used by the one thread that serves the response.
 */
public final class SseWriter {
    /** The {@code Content-Type} of an event stream. */
    public static final String CONTENT_TYPE = "text/event-stream;charset=utf-8";

    private final OutputStream out;
    private final EndPoint endPoint;
    private final ByteBuffer probe = ByteBuffer.allocate(64);

    private SseWriter(OutputStream out, EndPoint endPoint) {
        this.out = out;
        this.endPoint = endPoint;
    }

    /**
     * Answers 200 with an event stream on {@code ctx} (uncached, unbuffered by proxies) and sends the
     * opening comment {@code : threadline}.
     *
     * @throws IOException when the client is gone
     */
    public static SseWriter start(Context ctx) throws IOException {
        ctx.status(200);
        ctx.res().setContentType(CONTENT_TYPE);
        ctx.res().setHeader("Cache-Control", "no-cache");
        ctx.res().setHeader("X-Accel-Buffering", "no");
        SseWriter w = new SseWriter(ctx.res().getOutputStream(), endPoint(ctx));
        w.comment("threadline");
        return w;
    }

    /** The connection under {@code ctx}, to see whether its client closed it; null when that cannot be known. */
    private static EndPoint endPoint(Context ctx) {
        try {
            return ServletContextRequest.getServletContextRequest(ctx.req()).getConnectionMetaData().getConnection().getEndPoint();
        } catch (RuntimeException unknown) {
            return null;
        }
    }

    /**
     * Sends one event: {@code id:} (when not null), {@code event:} and one {@code data:} line of JSON.
     *
     * @throws IOException when the client is gone
     */
    public void event(Long id, String name, String json) throws IOException {
        StringBuilder b = new StringBuilder(json.length() + 64);
        if (id != null) {
            b.append("id: ").append(id).append('\n');
        }
        b.append("event: ").append(name).append('\n').append("data: ").append(json).append("\n\n");
        write(b.toString());
    }

    /**
     * Sends a comment line (clients ignore it; a failed write shows the client is gone).
     *
     * @throws IOException when the client is gone
     */
    public void comment(String text) throws IOException {
        write(": " + text + "\n\n");
    }

    /**
     * Whether the client has closed its side, without writing: a read of the connection that does not
     * wait (the request was read whole, so nothing of it is taken; a client sends nothing more on a
     * stream, and anything it does is dropped). A write only fails at the second write after the
     * client left, which for an idle stream is two heartbeats later.
     */
    public boolean clientGone() {
        if (endPoint == null) {
            return false;
        }
        try {
            probe.clear().flip(); // Jetty's buffers are filled from their limit
            return !endPoint.isOpen() || endPoint.fill(probe) < 0;
        } catch (IOException | RuntimeException gone) {
            return true;
        }
    }

    private void write(String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
