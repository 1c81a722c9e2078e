package dev.threadline.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.state.Budget;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Optional;
import java.util.Set;

/**
 * {@code PUT /v1/sessions/{id}/budget}: what the whole session may spend from now on. A turn suspended with
 * {@code budget_exceeded} continues in this request when the new budget leaves it room, and its result is in the
 * answer's {@code turn}; otherwise {@code turn} is null. Stateless apart from the shared {@link Api}.
 */
final class BudgetRoutes {
    static final Set<String> FIELDS = Set.of("tokens", "cost");

    private final Api api;

    BudgetRoutes(Api api) {
        this.api = api;
    }

    void register(RoutesConfig r) {
        r.put("/v1/sessions/{id}/budget", this::set);
    }

    /**
     * A budget object ({@code {"tokens": N, "cost": "2.50"}}; a field left out or 0 is no limit on it) read from {@code b}.
     *
     * @throws ApiException naming the field when one is malformed
     */
    static Budget budget(JsonBody b) {
        Long tokens = b.integer("tokens", 0, Long.MAX_VALUE);
        String cost = b.string("cost", 40);
        long micros;
        try {
            micros = cost == null ? 0 : Budget.micros(cost, b.prefix() + "cost");
        } catch (dev.threadline.core.error.InvalidInputException e) {
            throw ApiException.invalid(b.prefix() + "cost", e.reason());
        }
        return new Budget(tokens == null ? 0 : tokens, micros);
    }

    private void set(Context ctx) {
        Session s = api.session(ctx);
        Budget budget = budget(api.body(ctx, FIELDS));
        Optional<TurnResult> turn = s.with(api.options(ctx)).setBudget(budget);
        ObjectNode o = Json.object().put("sessionId", s.id());
        o.set("budget", Json.tree(budget));
        o.set("turn", turn.<com.fasterxml.jackson.databind.JsonNode>map(Json::tree).orElse(Json.mapper().nullNode()));
        o.put("status", s.state().status().wireName());
        Api.send(ctx, 200, o);
    }
}
