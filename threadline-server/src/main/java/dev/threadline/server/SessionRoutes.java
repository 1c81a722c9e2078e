package dev.threadline.server;

import dev.threadline.core.error.CommandConflictException;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.context.ContextRecall;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import dev.threadline.server.http.Query;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code POST/GET /v1/sessions}, {@code GET/DELETE /v1/sessions/{id}}. Stateless apart from the shared {@link Api}. */
final class SessionRoutes {
    private static final Set<String> CREATE = Set.of("id", "userId", "metadata", "ttlSeconds", "config");
    static final Set<String> CONFIG = Set.of("model", "systemPrompt", "skills", "contextPolicy", "maxIterations",
            "toolTimeoutMillis", "maxOutputTokens", "turnTokenBudget", "requireApproval", "doubleTexting", "baseUrl", "recall", "budget");
    private static final Set<String> RECALL = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(java.util.List.of("k", "tokenBudget")));
    private static final String META = "metadata.";

    private final Api api;

    SessionRoutes(Api api) {
        this.api = api;
    }

    void register(RoutesConfig r) {
        r.post("/v1/sessions", this::create);
        r.get("/v1/sessions", this::list);
        r.get("/v1/sessions/{id}", ctx -> {
            Session s = api.session(ctx);
            Query.only(ctx);
            Api.send(ctx, 200, Views.session(s.info()));
        });
        r.delete("/v1/sessions/{id}", this::delete);
    }

    private void create(Context ctx) {
        Limits l = api.limits();
        JsonBody body = api.body(ctx, CREATE);
        CommandOptions options = api.options(ctx);
        String id = body.string("id", 128);
        String key = options.commandId().orElse(null);
        if (id == null && key != null) {
            id = idFor(key); // a retry must name the same session for the core to recognise it
        }
        Long ttl = body.integer("ttlSeconds", 1, 100L * 365 * 24 * 3600);
        String user = body.string("userId", 128);
        if (user != null) {
            SessionInfo.checkId(user, "userId"); // the core takes any user id here, but refuses it elsewhere (user variables)
        }
        NewSession ns = new NewSession(id, user, config(body.object("config", CONFIG), l, api.config.sessionDefaults()),
                body.stringMap("metadata", l.maxMetadataPairs(), l.maxValueChars()), ttl == null ? null : Duration.ofSeconds(ttl));
        Tenant tenant = api.tenant(ctx);
        if (key != null) {
            if (!api.keys.claimCreate(tenant.id(), key, SessionInfo.checkId(id, "id"))) {
                throw new CommandConflictException(id, key, "creating another session", "creating this one");
            }
        }
        boolean retry = key != null && id != null && tenant.find(id).isPresent();
        if (!retry) {
            api.sessionCounts.admit(tenant);
        }
        Session s = tenant.with(options).create(ns);
        if (!retry) {
            api.sessionCounts.created(tenant.id());
        }
        ctx.header("Location", "/v1/sessions/" + s.id());
        Api.send(ctx, 201, Views.session(s.info()));
    }

    /**
     * {@code defaults} changed by the fields of a create's (or a config file's) {@code config} object; a field not
     * given keeps the default's value (the base URL and recall included: building the config anew once dropped them).
     * {@code recall} is {@code {"k": K, "tokenBudget": T}}, or null to turn a default's recall off.
     */
    static SessionConfig config(JsonBody c, Limits l, SessionConfig defaults) {
        SessionConfig config = defaults;
        if (c == null) {
            return config;
        }
        String model = c.string("model", 200);
        String baseUrl = c.string("baseUrl", 2_000);
        String prompt = c.string("systemPrompt", l.maxTextChars());
        var skills = c.strings("skills", 100, 128);
        String policy = c.string("contextPolicy", 100);
        Long maxIterations = c.integer("maxIterations", 1, 1000);
        Long toolTimeout = c.integer("toolTimeoutMillis", 1, 3_600_000);
        Long maxOutput = c.integer("maxOutputTokens", 1, 1_000_000);
        Long budget = c.integer("turnTokenBudget", 0, Long.MAX_VALUE);
        var approval = c.strings("requireApproval", 100, 128);
        String strategy = c.string("doubleTexting", 20);
        JsonBody recall = c.object("recall", RECALL);
        JsonBody spend = c.object("budget", BudgetRoutes.FIELDS);
        DoubleTexting doubleTexting;
        try {
            doubleTexting = strategy == null ? null : DoubleTexting.fromWire(strategy);
        } catch (dev.threadline.core.error.InvalidInputException e) {
            throw ApiException.invalid(c.prefix() + "doubleTexting", "must be one of enqueue, reject, interrupt, rollback, steer");
        }
        if (model != null || baseUrl != null) {
            config = config.withModel(model != null ? model : config.model(), baseUrl != null ? baseUrl : config.baseUrl());
        }
        config = prompt != null ? config.withSystemPrompt(prompt) : config;
        config = skills != null ? config.withSkills(skills) : config;
        config = policy != null ? config.withContextPolicy(ContextPolicy.parse(policy)) : config;
        config = maxIterations != null ? config.withMaxIterations(maxIterations.intValue()) : config;
        config = toolTimeout != null ? config.withToolTimeoutMillis(toolTimeout) : config;
        config = maxOutput != null ? config.withMaxOutputTokens(maxOutput.intValue()) : config;
        config = budget != null ? config.withTurnTokenBudget(budget) : config;
        config = approval != null ? config.withRequireApproval(approval) : config;
        config = doubleTexting != null ? config.withDoubleTexting(doubleTexting) : config;
        if (recall != null) {
            Long k = recall.integer("k", 1, ContextRecall.MAX_K);
            Long tokens = recall.integer("tokenBudget", 1, ContextRecall.MAX_BUDGET);
            if (k == null || tokens == null) {
                throw ApiException.invalid(recall.prefix() + (k == null ? "k" : "tokenBudget"),
                        "is required: recall is {\"k\": 1 to " + ContextRecall.MAX_K + ", \"tokenBudget\": 1 to " + ContextRecall.MAX_BUDGET + "}");
            }
            config = config.withRecall(k.intValue(), tokens.intValue());
        } else if (c.present("recall")) {
            config = config.withRecall(null);
        }
        if (spend != null) {
            config = config.withBudget(BudgetRoutes.budget(spend));
        } else if (c.present("budget")) {
            config = config.withBudget(null);
        }
        return config;
    }

    /** The id of a session created with an Idempotency-Key and no id: derived from the key. */
    static String idFor(String idempotencyKey) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(idempotencyKey.getBytes(StandardCharsets.UTF_8));
            return "s-" + HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private void list(Context ctx) {
        Limits l = api.limits();
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<String, java.util.List<String>> q : ctx.queryParamMap().entrySet()) {
            String name = q.getKey();
            if (name.startsWith(META)) {
                if (q.getValue().size() != 1) {
                    throw ApiException.invalid(name, "give each metadata filter once");
                }
                metadata.put(JsonBody.checked(name, name.substring(META.length()), l.maxValueChars()),
                        JsonBody.checked(name, q.getValue().getFirst(), l.maxValueChars()));
            } else if (!Set.of("limit", "cursor", "user").contains(name)) {
                throw ApiException.invalid(name, "unknown parameter; this endpoint takes limit, cursor, user and metadata.KEY");
            }
        }
        if (metadata.size() > l.maxMetadataPairs()) {
            throw ApiException.invalid("metadata", "at most " + l.maxMetadataPairs() + " filters");
        }
        SessionFilter filter = new SessionFilter(Query.text(ctx, "user", 128), metadata,
                (int) Query.integer(ctx, "limit", 1, 1000, 100), Query.text(ctx, "cursor", 1000));
        Api.send(ctx, 200, Views.page(api.tenant(ctx).sessions(filter), Views::summary));
    }

    private void delete(Context ctx) {
        Session s = api.session(ctx);
        Query.only(ctx);
        api.tenant(ctx).delete(s.id());
        api.sessionCounts.deleted(api.tenant(ctx).id());
        ctx.status(204);
    }
}
