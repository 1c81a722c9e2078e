package dev.threadline.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.DataLifecycle;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.runtime.LegalHold;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import dev.threadline.server.keys.KeyStore;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Set;

/**
 * The operator's routes, {@code /v1/admin/...}, open only to an admin key ({@code threadline keys create
 * --admin}; a tenant's key is refused there, and an admin key everywhere else): erasure with receipts
 * and legal holds ({@link DataLifecycle}) over every tenant of the store.
 *
 * <ul>
 *   <li>{@code POST /v1/admin/erasures} {@code {"tenant", "user" | "session" | "all": true, "by"?}}: 200
 *       and the receipt; {@code all} also removes the tenant's API keys ({@code apiKeys}) and webhook subscriptions ({@code webhooks}). 409
 *       {@code legal-hold} naming the hold, 404 {@code nothing-to-erase} for a subject the store has nothing of.</li>
 *   <li>{@code GET /v1/admin/erasures?tenant=T}: the tenant's receipts, oldest first.</li>
 *   <li>{@code POST /v1/admin/holds} {@code {"tenant", "user" | "session" | "all": true, "reason", "by"?}}: 201
 *       and the hold (200 with the one in place, unchanged, when there is one).</li>
 *   <li>{@code DELETE /v1/admin/holds?tenant=T&user=U} (or {@code session=S}, or neither for the tenant):
 *       204, or 404 when there is no such hold.</li>
 *   <li>{@code GET /v1/admin/holds?tenant=T}: the holds on the tenant, oldest first.</li>
 * </ul>
 * {@code by}, who acts as the records keep it, defaults to {@code admin}; every change is recorded with it
 * in the store's records journal.
 */
final class AdminRoutes {
    /** The path every route here lives under. */
    static final String PREFIX = "/v1/admin/";
    private static final Set<String> ERASE = Set.of("tenant", "user", "session", "all", "by");
    private static final Set<String> HOLD = Set.of("tenant", "user", "session", "all", "by", "reason");
    private static final int MAX_TEXT = 500;
    private static final int MAX_ID = 128;

    private final Api api;

    AdminRoutes(Api api) {
        this.api = api;
    }

    /** An admin key opens {@code /v1/admin/} and nothing else; a tenant's key everything but that (403 otherwise). */
    static dev.threadline.core.runtime.Tenant guard(Context ctx, dev.threadline.core.runtime.Tenant t) {
        boolean adminKey = t.id().equals(KeyStore.ADMIN);
        if (ctx.path().startsWith(PREFIX) != adminKey) {
            throw new ApiException(403, "forbidden", "Authorization", adminKey
                    ? "an admin key opens the operator's routes under " + PREFIX + " only; use a tenant's key here"
                    : "the routes under " + PREFIX + " need an admin key (threadline keys create --admin)");
        }
        return t;
    }

    void register(RoutesConfig r) {
        r.post(PREFIX + "erasures", this::erase);
        r.get(PREFIX + "erasures", ctx -> {
            ArrayNode out = Json.mapper().createArrayNode();
            for (ErasureReceipt receipt : lifecycle().receipts(tenantParam(ctx))) {
                out.add(Json.tree(receipt));
            }
            Api.send(ctx, 200, Json.object().set("receipts", out));
        });
        r.post(PREFIX + "holds", this::placeHold);
        r.delete(PREFIX + "holds", ctx -> {
            DataSubject s = subject(tenantParam(ctx), ctx.queryParam("user"), ctx.queryParam("session"), false, "query");
            if (!lifecycle().liftHold(s, "admin")) {
                throw new ApiException(404, "hold-not-found", null, "there is no legal hold on " + s);
            }
            ctx.status(204);
        });
        r.get(PREFIX + "holds", ctx -> {
            ArrayNode out = Json.mapper().createArrayNode();
            for (LegalHold h : lifecycle().holds(tenantParam(ctx))) {
                out.add(holdJson(h));
            }
            Api.send(ctx, 200, Json.object().set("holds", out));
        });
    }

    private void erase(Context ctx) {
        JsonBody body = api.body(ctx, ERASE);
        DataSubject s = subject(body);
        String by = by(body);
        if (!lifecycle().holdsDataOf(s) && lifecycle().unfinished(s).isEmpty()) {
            throw new ApiException(404, "nothing-to-erase", null, s + " has nothing in this store; nothing was erased");
        }
        ErasureReceipt receipt = lifecycle().erase(s, by);
        ObjectNode out = (ObjectNode) Json.tree(receipt);
        if (s.kind() == DataSubject.Kind.TENANT) {
            out.put("apiKeys", api.keys.removeTenant(s.tenant(), by));
            if (api.webhooks != null) {
                out.put("webhooks", api.webhooks.records().removeTenant(s.tenant()));
            }
        }
        Api.send(ctx, 200, out);
    }

    private void placeHold(Context ctx) {
        JsonBody body = api.body(ctx, HOLD);
        DataSubject s = subject(body);
        String reason = body.requiredString("reason", MAX_TEXT);
        boolean there = lifecycle().holds(s.tenant()).stream().anyMatch(h -> h.subject().equals(s));
        LegalHold h = lifecycle().placeHold(s, reason, by(body));
        Api.send(ctx, there ? 200 : 201, holdJson(h));
    }

    private DataLifecycle lifecycle() {
        return api.runtime.lifecycle();
    }

    private static DataSubject subject(JsonBody body) {
        return subject(body.requiredString("tenant", MAX_ID), body.string("user", MAX_TEXT),
                body.string("session", MAX_ID), body.bool("all", false), "body");
    }

    /** Exactly one of user, session and all (for a body; a query names the tenant by giving neither). */
    private static DataSubject subject(String tenant, String user, String session, boolean all, String where) {
        int given = (user != null ? 1 : 0) + (session != null ? 1 : 0) + (all ? 1 : 0);
        if (given > 1 || (given == 0 && where.equals("body"))) {
            throw ApiException.invalid(user != null ? "user" : "session", "name exactly one of user, session and all: true");
        }
        SessionInfo.checkId(tenant, "tenant");
        if (tenant.equals(KeyStore.TENANT) || tenant.equals(KeyStore.ADMIN)) {
            throw ApiException.invalid("tenant", "'" + tenant + "' is reserved for the server's own records");
        }
        return user != null ? DataSubject.user(tenant, user)
                : session != null ? DataSubject.session(tenant, session) : DataSubject.tenant(tenant);
    }

    private static String tenantParam(Context ctx) {
        String t = ctx.queryParam("tenant");
        if (t == null || t.isBlank()) {
            throw ApiException.invalid("tenant", "name the tenant: ?tenant=ID");
        }
        return SessionInfo.checkId(t, "tenant");
    }

    private static String by(JsonBody body) {
        String by = body.string("by", MAX_TEXT);
        if (by != null && by.isBlank()) {
            throw ApiException.invalid("by", "must name someone, or be left out");
        }
        return by == null ? "admin" : by;
    }

    private static ObjectNode holdJson(LegalHold h) {
        ObjectNode subject = Json.object().put("tenant", h.subject().tenant()).put("kind", h.subject().kind().name().toLowerCase());
        if (h.subject().kind() != DataSubject.Kind.TENANT) {
            subject.put("id", h.subject().id());
        }
        ObjectNode out = Json.object();
        out.set("subject", subject);
        return out.put("reason", h.reason()).put("placedAt", h.placedAt().toString()).put("placedBy", h.placedBy())
                .put("describe", h.describe());
    }
}
