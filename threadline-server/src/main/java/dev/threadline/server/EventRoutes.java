package dev.threadline.server;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.Query;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /v1/sessions/{id}/events?after=SEQ}: an observer's SSE stream of a session's journal,
 * read from the store (never a memory buffer), so it works on any node and sees every node's writes.
 * {@code Last-Event-ID} (sent by reconnecting clients) wins over {@code after} and resumes exactly
 * after that seq. {@code follow=false} ends the stream once it has caught up. Idle streams get a
 * comment line every heartbeat.
 */
final class EventRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(EventRoutes.class);

    /** How often an idle stream looks whether its client is still there (a read that does not wait, nothing sent). */
    static final java.time.Duration PROBE = java.time.Duration.ofMillis(500);

    private final Api api;

    EventRoutes(Api api) {
        this.api = api;
    }

    void register(RoutesConfig r) {
        r.get("/v1/sessions/{id}/events", this::events);
    }

    private void events(Context ctx) throws IOException {
        Session s = api.session(ctx);
        Query.only(ctx, "after", "follow");
        long after = Query.integer(ctx, "after", 0, Api.MAX_SEQ, 0);
        String lastId = ctx.header("Last-Event-ID");
        if (lastId != null) {
            after = Query.parse("Last-Event-ID", lastId, 0, Api.MAX_SEQ);
        }
        String follow = ctx.queryParam("follow");
        if (follow != null && !follow.equals("true") && !follow.equals("false")) {
            throw ApiException.invalid("follow", "must be true or false");
        }
        boolean following = !"false".equals(follow);
        long cursor = after;
        try (SseStreams.Slot slot = api.streams.reserve(api.tenant(ctx).id()); SseStreams.Stream out = api.streams.open(ctx, true)) {
            long lastSent = System.nanoTime();
            while (!api.closing.get()) {
                List<StoredEvent> batch = following ? s.history().awaitEvents(cursor, PROBE.compareTo(api.config.heartbeat()) < 0
                        ? PROBE : api.config.heartbeat()) : s.history().events(cursor, 1000);
                if (batch.isEmpty()) {
                    if (!following) {
                        return;
                    }
                    if (out.clientGone()) {
                        LOG.debug("observer stream closed by the client (session={})", s.id());
                        return; // its slot is given back now, not at the next failed ping
                    }
                    if (System.nanoTime() - lastSent >= api.config.heartbeat().toNanos()) {
                        out.comment("ping");
                        lastSent = System.nanoTime();
                    }
                    continue;
                }
                lastSent = System.nanoTime();
                for (StoredEvent e : batch) {
                    out.event(e.seq(), e.event().type(), Json.write(Views.event(e)));
                    cursor = e.seq();
                }
            }
        } catch (IOException gone) {
            LOG.debug("observer stream closed by the client (session={})", s.id());
        } catch (ThreadlineException stopped) {
            LOG.debug("observer stream ended: {} (session={})", stopped.getClass().getSimpleName(), s.id());
        }
    }
}
