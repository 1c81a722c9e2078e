package dev.threadline.server.compat.langgraph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.server.compat.Body;
import dev.threadline.server.compat.Errors;
import dev.threadline.server.http.Idempotency;
import dev.threadline.server.http.ApiException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Assistants: a Threadline session config plays the assistant. {@code default} is the server's default
 * config and always exists; {@code assistants.create} stores another config (the server's default changed
 * by {@code config.configurable}) as a session of the tenant that never runs a turn (metadata {@code langgraph_kind=assistant}); a thread copies its assistant's
 * config when it is created. Stateless.
 */
final class Assistants {
    static final String DEFAULT = "default";
    static final String KIND = "langgraph_kind";
    private static final Set<String> CONFIGURABLE = Set.of("model", "system_prompt", "skills", "require_approval",
            "double_texting", "max_iterations");

    private Assistants() {}

    /** The config of assistant {@code id} in {@code tenant}; 404 when there is none. */
    static SessionConfig config(Tenant tenant, String id, SessionConfig defaults) {
        if (DEFAULT.equals(id)) {
            return defaults;
        }
        return find(tenant, id).map(s -> s.info().config()).orElseThrow(() -> Errors.notFound("assistant"));
    }

    static Optional<Session> find(Tenant tenant, String id) {
        try {
            SessionInfo.checkId(id, "assistant_id");
        } catch (InvalidInputException e) {
            return Optional.empty();
        }
        return tenant.find(id).filter(s -> "assistant".equals(s.info().metadata().get(KIND)));
    }

    static ObjectNode view(String id, SessionConfig config, Map<String, String> metadata, Instant created) {
        ObjectNode o = Json.object();
        o.put("assistant_id", id);
        o.put("graph_id", metadata.getOrDefault("graph_id", DEFAULT));
        ObjectNode c = o.putObject("config");
        c.putArray("tags");
        ObjectNode conf = c.putObject("configurable");
        conf.put("model", config.model()).put("system_prompt", config.systemPrompt());
        config.skills().forEach(conf.putArray("skills")::add);
        config.requireApproval().forEach(conf.putArray("require_approval")::add);
        conf.put("double_texting", config.doubleTexting().wireName()).put("max_iterations", config.maxIterations());
        o.putObject("context");
        o.put("created_at", created.toString()).put("updated_at", created.toString());
        ObjectNode meta = o.putObject("metadata");
        metadata.forEach((k, v) -> {
            if (!k.equals(KIND)) {
                meta.put(k, v);
            }
        });
        o.put("version", 1);
        o.put("name", metadata.getOrDefault("name", id));
        o.putNull("description");
        return o;
    }

    static ObjectNode view(Tenant tenant, String id, SessionConfig defaults) {
        if (DEFAULT.equals(id)) {
            return view(DEFAULT, defaults, Map.of("graph_id", DEFAULT, "name", DEFAULT), Instant.EPOCH);
        }
        Session s = find(tenant, id).orElseThrow(() -> Errors.notFound("assistant"));
        return view(id, s.info().config(), s.info().metadata(), s.info().createdAt());
    }

    /** {@code POST /assistants}: stores the config given in {@code config.configurable}. */
    static ObjectNode create(Tenant tenant, Body body, int maxText, SessionConfig defaults, CommandOptions options) {
        String id = body.string("assistant_id", 128);
        if (id == null) {
            id = options.commandId().map(k -> Idempotency.uuid("assistant", k)).orElseGet(() -> UUID.randomUUID().toString());
        }
        if (DEFAULT.equals(id)) {
            throw new ApiException(409, "assistant-exists", "assistant_id", "the assistant 'default' always exists");
        }
        String ifExists = body.oneOf("if_exists", Set.of("raise", "do_nothing"));
        String graph = body.string("graph_id", 128);
        if (graph != null && !graph.equals(DEFAULT)) {
            throw Body.unsupported("graph_id", "Threadline serves one graph, its agent loop: 'default'");
        }
        String name = body.string("name", 512);
        SessionConfig config = defaults;
        Body c = body.object("config", Set.of("configurable", "tags", "recursion_limit"));
        if (c != null) {
            if (c.node("tags") != null && !(c.node("tags").isArray() && c.node("tags").isEmpty())) {
                throw Body.unsupported("config.tags", "Threadline assistants take no tags");
            }
            Long limit = c.integer("recursion_limit", 1, 1000);
            if (limit != null) {
                config = config.withMaxIterations(limit.intValue());
            }
            Body k = c.object("configurable", CONFIGURABLE);
            if (k != null) {
                config = configurable(k, config, maxText);
            }
        }
        Map<String, String> metadata = new java.util.LinkedHashMap<>();
        Map<String, String> given = body.stringMap("metadata", 16, 64, 512);
        if (given != null) {
            metadata.putAll(given);
        }
        metadata.put(KIND, "assistant");
        metadata.put("graph_id", DEFAULT);
        if (name != null) {
            metadata.put("name", name);
        }
        Optional<Session> existing = tenant.find(SessionInfo.checkId(id, "assistant_id"));
        if (existing.isPresent() && options.commandId().isEmpty()) {
            if ("do_nothing".equals(ifExists) && "assistant".equals(existing.get().info().metadata().get(KIND))) {
                return view(tenant, id, defaults);
            }
            throw new ApiException(409, "assistant-exists", "assistant_id", "an assistant or thread with this id exists");
        }
        Session s;
        try {
            s = tenant.with(options).create(new NewSession(id, null, config, metadata, null)); // with a key: a retry replays
        } catch (dev.threadline.core.error.SessionExistsException e) {
            throw new ApiException(409, "assistant-exists", "assistant_id", "an assistant or thread with this id exists");
        }
        return view(id, s.info().config(), s.info().metadata(), s.info().createdAt());
    }

    private static SessionConfig configurable(Body k, SessionConfig config, int maxText) {
        String model = k.string("model", 200);
        if (model != null) {
            config = config.withModel(model);
        }
        String prompt = k.string("system_prompt", maxText);
        if (prompt != null) {
            config = config.withSystemPrompt(prompt);
        }
        List<String> skills = strings(k, "skills");
        if (skills != null) {
            config = config.withSkills(skills);
        }
        List<String> approval = strings(k, "require_approval");
        if (approval != null) {
            config = config.withRequireApproval(approval);
        }
        String dt = k.string("double_texting", 20);
        if (dt != null) {
            config = config.withDoubleTexting(DoubleTexting.fromWire(dt));
        }
        Long max = k.integer("max_iterations", 1, 1000);
        if (max != null) {
            config = config.withMaxIterations(max.intValue());
        }
        return config;
    }

    private static List<String> strings(Body k, String field) {
        JsonNode v = k.node(field);
        if (v == null) {
            return null;
        }
        if (!v.isArray() || v.size() > 100) {
            throw ApiException.invalid(k.name(field), "must be an array of at most 100 tool names");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode n : v) {
            if (!n.isTextual() || n.asText().isBlank() || n.asText().length() > 128) {
                throw ApiException.invalid(k.name(field), "must hold tool names (1-128 characters)");
            }
            out.add(n.asText());
        }
        return out;
    }
}
