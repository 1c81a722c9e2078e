package dev.threadline.server;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.PageRequest;
import dev.threadline.core.runtime.Session;
import dev.threadline.server.http.Query;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reads of one session: {@code /state}, {@code /checkpoints} (cursor paging, oldest first),
 * {@code /checkpoints/{seq}} (the state then) and {@code /export} (the journal as JSON Lines, written
 * in pages so a long journal is never held whole). Reads change nothing.
 */
final class HistoryRoutes {
    private static final int EXPORT_PAGE = 500;

    private final Api api;

    HistoryRoutes(Api api) {
        this.api = api;
    }

    void register(RoutesConfig r) {
        r.get("/v1/sessions/{id}/state", ctx -> {
            Session s = api.session(ctx);
            Query.only(ctx);
            Api.send(ctx, 200, Views.state(s.id(), s.state()));
        });
        r.get("/v1/sessions/{id}/checkpoints", this::checkpoints);
        r.get("/v1/sessions/{id}/checkpoints/{seq}", ctx -> {
            Session s = api.session(ctx);
            Query.only(ctx);
            long seq = Query.parse("seq", ctx.pathParam("seq"), 1, Api.MAX_SEQ);
            Api.send(ctx, 200, Views.state(s.id(), s.history().stateAt(seq)));
        });
        r.get("/v1/sessions/{id}/export", this::export);
        r.get("/v1/sessions/{id}/search", this::search);
    }

    /** {@code ?q=…&limit=…}: full-text search over the session's journal, best first ({@code History.search}). */
    private void search(Context ctx) {
        Session s = api.session(ctx);
        Query.only(ctx, "q", "limit");
        String q = Query.text(ctx, "q", dev.threadline.core.runtime.History.MAX_QUERY);
        if (q == null || q.isBlank()) {
            throw dev.threadline.server.http.ApiException.invalid("q", (q == null ? "is missing" : "is empty")
                    + "; give the words to search for: ?q=…");
        }
        int limit = (int) Query.integer(ctx, "limit", 1, 100, 10);
        java.util.List<dev.threadline.core.model.SearchHit> hits;
        try {
            hits = s.history().search(q, limit);
        } catch (dev.threadline.core.error.InvalidInputException e) {
            throw "query".equals(e.field()) ? dev.threadline.server.http.ApiException.invalid("q", e.reason()) : e; // the parameter's name
        }
        com.fasterxml.jackson.databind.node.ArrayNode items = Json.mapper().createArrayNode();
        for (dev.threadline.core.model.SearchHit h : hits) {
            items.add(Json.object().put("session", h.session()).put("seq", h.seq()).put("role", h.role().name().toLowerCase())
                    .put("time", h.time().toString()).put("snippet", h.snippet()).put("score", h.score()));
        }
        Api.send(ctx, 200, Json.object().set("items", items));
    }

    private void checkpoints(Context ctx) {
        Session s = api.session(ctx);
        Query.only(ctx, "limit", "cursor");
        int limit = (int) Query.integer(ctx, "limit", 1, 1000, 100);
        long after = Query.integer(ctx, "cursor", 0, Api.MAX_SEQ, 0);
        Api.send(ctx, 200, Views.page(s.history().checkpoints(PageRequest.after(after, limit)), Views::checkpoint));
    }

    private void export(Context ctx) throws IOException {
        Session s = api.session(ctx);
        Query.only(ctx);
        ctx.status(200);
        ctx.res().setContentType("application/x-ndjson;charset=utf-8");
        ctx.res().setHeader("Content-Disposition", "attachment; filename=\"" + s.id() + ".jsonl\"");
        OutputStream out = ctx.res().getOutputStream();
        long cursor = 0;
        while (true) {
            List<StoredEvent> page = s.history().events(cursor, EXPORT_PAGE);
            for (StoredEvent e : page) {
                out.write((Json.write(Views.event(e)) + "\n").getBytes(StandardCharsets.UTF_8));
                cursor = e.seq();
            }
            if (page.size() < EXPORT_PAGE) {
                break;
            }
        }
        out.flush();
    }
}
