package dev.threadline.server;

import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.CompactionResult;
import dev.threadline.core.runtime.ReplayReport;
import dev.threadline.core.runtime.ReplayRequest;
import dev.threadline.core.runtime.Session;
import dev.threadline.server.http.JsonBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Set;

/**
 * The write commands on a session besides turns: {@code fork}, {@code rewind}, {@code compact},
 * {@code clear} (each idempotent by its Idempotency-Key), {@code replay} (its turns on another model, on a
 * new branch) and {@code interrupt} (a signal to the turn
 * this node runs for the session; repeating it is harmless, so it takes no key); the
 * human-in-the-loop commands are {@link HumanRoutes}. A fork or rewind to before calls with side
 * effects is refused (409 {@code undone-effects}, naming them) unless the body acknowledges them with
 * {@code "acknowledgeEffects": true}.
 */
final class CommandRoutes {
    private static final Set<String> FORK = Set.of("seq", "id", "acknowledgeEffects");
    private static final Set<String> REWIND = Set.of("seq", "acknowledgeEffects");
    private static final Set<String> COMPACT = Set.of("focus");
    private static final Set<String> REPLAY = Set.of("model", "fromSeq", "toSeq", "liveTools");
    private static final Set<String> NONE = Set.of();

    private final Api api;

    CommandRoutes(Api api) {
        this.api = api;
    }

    void register(RoutesConfig r) {
        r.post("/v1/sessions/{id}/fork", this::fork);
        r.post("/v1/sessions/{id}/rewind", this::rewind);
        r.post("/v1/sessions/{id}/compact", this::compact);
        r.post("/v1/sessions/{id}/clear", this::clear);
        r.post("/v1/sessions/{id}/interrupt", this::interrupt);
        r.post("/v1/sessions/{id}/replay", this::replay);
        new HumanRoutes(api, new TurnRoutes(api)).register(r);
        new BudgetRoutes(api).register(r);
    }

    private void fork(Context ctx) {
        Session s = api.session(ctx);
        JsonBody body = api.body(ctx, FORK);
        long seq = seq(body);
        api.sessionCounts.admit(api.tenant(ctx));
        Session view = s.with(acknowledged(body, api.options(ctx)));
        String newId = body.string("id", 128);
        Session branch = newId == null ? view.fork(seq) : view.fork(seq, newId);
        created(ctx, branch);
    }

    private void rewind(Context ctx) {
        Session s = api.session(ctx);
        JsonBody body = api.body(ctx, REWIND);
        long seq = seq(body);
        api.sessionCounts.admit(api.tenant(ctx));
        created(ctx, s.with(acknowledged(body, api.options(ctx))).rewind(seq));
    }

    private void compact(Context ctx) {
        Session s = api.session(ctx);
        String focus = api.body(ctx, COMPACT).string("focus", api.limits().maxTextChars());
        CompactionResult r = s.with(api.options(ctx)).compact(focus);
        Api.send(ctx, 200, Json.tree(r));
    }

    private void clear(Context ctx) {
        Session s = api.session(ctx);
        api.body(ctx, NONE);
        s.with(api.options(ctx)).clear();
        Api.send(ctx, 200, Views.state(s.id(), s.state()));
    }

    /**
     * Runs the session's user turns again on another model, on a new branch, and answers the per-turn
     * comparison ({@code Session.replay}). Each replay makes a new branch, so it takes no Idempotency-Key.
     */
    private void replay(Context ctx) {
        Session s = api.session(ctx);
        JsonBody body = api.body(ctx, REPLAY);
        if (ctx.header("Idempotency-Key") != null) {
            throw dev.threadline.server.http.ApiException.invalid("Idempotency-Key",
                    "a replay takes none: each replay makes a new branch; send it again to replay again");
        }
        Long from = body.integer("fromSeq", 0, Long.MAX_VALUE);
        Long to = body.integer("toSeq", 0, Long.MAX_VALUE);
        ReplayRequest request = new ReplayRequest(body.requiredString("model", 200), from == null ? 0 : from, to == null ? 0 : to,
                body.bool("liveTools", false));
        api.sessionCounts.admit(api.tenant(ctx));
        ReplayReport report = s.replay(request);
        Api.send(ctx, 200, Json.tree(report));
    }

    private void interrupt(Context ctx) {
        Session s = api.session(ctx);
        api.body(ctx, NONE);
        api.options(ctx); // checked like every POST's, though an interrupt needs no dedup
        var o = Json.object().put("sessionId", s.id()).put("interrupted", s.interrupt());
        Api.send(ctx, 200, o);
    }

    private static CommandOptions acknowledged(JsonBody body, CommandOptions options) {
        return body.bool("acknowledgeEffects", false) ? options.toBuilder().acknowledgeEffects(true).build() : options;
    }

    private static long seq(JsonBody body) {
        Long seq = body.integer("seq", 1, Api.MAX_SEQ);
        if (seq == null) {
            throw dev.threadline.server.http.ApiException.invalid("seq", "is required: the checkpoint's seq");
        }
        return seq;
    }

    private void created(Context ctx, Session branch) {
        api.sessionCounts.created(api.tenant(ctx).id());
        ctx.header("Location", "/v1/sessions/" + branch.id());
        Api.send(ctx, 201, Views.session(branch.info()));
    }
}
