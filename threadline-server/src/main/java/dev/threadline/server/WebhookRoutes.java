package dev.threadline.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import dev.threadline.server.webhooks.Failure;
import dev.threadline.server.webhooks.Subscription;
import dev.threadline.server.webhooks.WebhookStore;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Set;

/**
 * A tenant's webhook subscriptions (ADR 0041), with the tenant's key like every {@code /v1} route:
 * <ul>
 *   <li>{@code POST /v1/webhooks} {@code {"url", "events": [...]}}: 201 and the subscription with its
 *       signing {@code secret} (shown here and by {@code GET /v1/webhooks/{hookId}} to its tenant only).</li>
 *   <li>{@code GET /v1/webhooks}: the tenant's subscriptions, oldest first, without secrets.</li>
 *   <li>{@code GET /v1/webhooks/{hookId}}: one, with its secret and its deliveries that failed for good.</li>
 *   <li>{@code DELETE /v1/webhooks/{hookId}}: 204; 404 when the tenant has no such subscription.</li>
 * </ul>
 * Another tenant's subscription is exactly like an unknown one. A server of a caller's runtime or of a
 * {@code memory:} store has no webhooks: these routes answer 501 there.
 */
final class WebhookRoutes {
    private static final Set<String> ADD = Set.of("url", "events");

    private final Api api;

    WebhookRoutes(Api api) {
        this.api = api;
    }

    void register(RoutesConfig r) {
        r.post("/v1/webhooks", this::add);
        r.get("/v1/webhooks", ctx -> {
            String tenant = api.tenant(ctx).id();
            ArrayNode out = Json.mapper().createArrayNode();
            for (Subscription s : store().list(tenant)) {
                out.add(json(s, false));
            }
            Api.send(ctx, 200, Json.object().set("webhooks", out));
        });
        r.get("/v1/webhooks/{hookId}", ctx -> {
            String tenant = api.tenant(ctx).id();
            Subscription s = store().find(tenant, ctx.pathParam("hookId")).orElseThrow(WebhookRoutes::notFound);
            ObjectNode out = json(s, true);
            ArrayNode failed = out.putArray("failures");
            for (Failure f : store().failures(tenant, s.id())) {
                failed.add(Json.tree(f));
            }
            Api.send(ctx, 200, out);
        });
        r.delete("/v1/webhooks/{hookId}", ctx -> {
            if (!store().remove(api.tenant(ctx).id(), ctx.pathParam("hookId"))) {
                throw notFound();
            }
            ctx.status(204);
        });
    }

    private void add(Context ctx) {
        String tenant = api.tenant(ctx).id();
        JsonBody body = api.body(ctx, ADD);
        Subscription s = store().add(tenant, body.requiredString("url", 2000), body.strings("events", 20, 64));
        api.webhooks.wake();
        Api.send(ctx, 201, json(s, true));
    }

    private WebhookStore store() {
        if (api.webhooks == null) {
            throw new ApiException(501, "webhooks-unavailable", null,
                    "webhooks need threadline serve on a shared store (sqlite:, postgresql://, redis://); this server has none");
        }
        return api.webhooks.records();
    }

    private static ApiException notFound() {
        return new ApiException(404, "webhook-not-found", "hookId", "this tenant has no webhook of that id");
    }

    private static ObjectNode json(Subscription s, boolean secret) {
        ObjectNode o = Json.object().put("id", s.id()).put("url", s.url().toString());
        ArrayNode events = o.putArray("events");
        s.events().forEach(events::add);
        o.put("createdAt", s.createdAt().toString());
        if (secret) {
            o.put("secret", s.secret());
        }
        return o;
    }
}
