package dev.threadline.server.compat.langgraph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.PageRequest;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.server.compat.Body;
import dev.threadline.server.compat.Errors;
import dev.threadline.server.compat.Gate;
import dev.threadline.server.compat.Host;
import dev.threadline.server.http.Idempotency;
import dev.threadline.server.http.ApiException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The LangGraph API as the LangGraph SDK ({@code @langchain/langgraph-sdk}) calls it, over Threadline
 * sessions: threads (create, get, search, delete), their state (get, update, history) and assistants
 * (get, create); runs are {@link Runs}. The key comes as {@code x-api-key}. See docs/compatibility.md
 * for every field, supported, mapped or refused. Thread-safe.
 */
public final class LangGraphApi {
    private static final Set<String> CREATE = Set.of("thread_id", "metadata", "if_exists", "ttl");
    private static final Set<String> SEARCH = Set.of("metadata", "ids", "limit", "offset", "status", "sort_by", "sort_order");
    private static final Set<String> UPDATE = Set.of("values", "checkpoint_id", "checkpoint");
    private static final Set<String> HISTORY = Set.of("limit", "before", "checkpoint");
    private static final Set<String> ASSISTANT = Set.of("assistant_id", "graph_id", "config", "metadata", "if_exists", "name");
    private static final Set<String> CHECKPOINT = Set.of("checkpoint_id", "thread_id", "checkpoint_ns");

    private final Host host;
    private final Runs runs;

    /** The surface over {@code host}. */
    public LangGraphApi(Host host) {
        this.host = host;
        this.runs = new Runs(host);
    }

    /** Adds the routes under {@code prefix} (e.g. {@code /langgraph}), behind the key gate. */
    public void register(RoutesConfig r, String prefix) {
        r.before(prefix + "/*", Gate.of(host, List.of("x-api-key", "Authorization")));
        r.post(prefix + "/threads", Errors.guarded(this::create));
        r.post(prefix + "/threads/search", Errors.guarded(this::search));
        r.get(prefix + "/threads/{thread_id}", Errors.guarded(ctx -> {
            noQuery(ctx);
            Session s = thread(ctx);
            Errors.send(ctx, 200, thread(s));
        }));
        r.delete(prefix + "/threads/{thread_id}", Errors.guarded(ctx -> {
            noQuery(ctx);
            Session s = thread(ctx);
            Gate.tenant(ctx).delete(s.id());
            ctx.status(204);
        }));
        r.get(prefix + "/threads/{thread_id}/state", Errors.guarded(ctx -> {
            subgraphsOnly(ctx);
            Session s = thread(ctx);
            Errors.send(ctx, 200, state(s, null));
        }));
        r.get(prefix + "/threads/{thread_id}/state/{checkpoint_id}", Errors.guarded(ctx -> {
            subgraphsOnly(ctx);
            Session s = thread(ctx);
            Errors.send(ctx, 200, state(s, seq(ctx.pathParam("checkpoint_id"), "checkpoint_id")));
        }));
        r.post(prefix + "/threads/{thread_id}/state/checkpoint", Errors.guarded(ctx -> {
            Session s = thread(ctx);
            Body b = Body.parse(ctx.bodyAsBytes(), Set.of("checkpoint", "subgraphs"));
            if (Boolean.TRUE.equals(b.bool("subgraphs"))) {
                throw Body.unsupported("subgraphs", "a Threadline session has no subgraphs");
            }
            Long seq = checkpointSeq(b.object("checkpoint", CHECKPOINT), s);
            if (seq == null) {
                throw ApiException.invalid("checkpoint.checkpoint_id", "is required");
            }
            Errors.send(ctx, 200, state(s, seq));
        }));
        r.post(prefix + "/threads/{thread_id}/state", Errors.guarded(this::updateState));
        r.post(prefix + "/threads/{thread_id}/history", Errors.guarded(this::history));
        r.get(prefix + "/assistants/{assistant_id}", Errors.guarded(ctx -> {
            noQuery(ctx);
            Errors.send(ctx, 200, Assistants.view(Gate.tenant(ctx), ctx.pathParam("assistant_id"), host.sessionDefaults()));
        }));
        r.post(prefix + "/assistants", Errors.guarded(ctx -> Errors.send(ctx, 200,
                Assistants.create(Gate.tenant(ctx), Body.parse(ctx.bodyAsBytes(), ASSISTANT), host.maxTextChars(),
                host.sessionDefaults(), Idempotency.options(ctx)))));
        r.post(prefix + "/threads/count", Errors.guarded(ctx -> {
            Body b = Body.parse(ctx.bodyAsBytes(), Set.of("metadata", "status"));
            Errors.send(ctx, 200, matching(Gate.tenant(ctx), b, null, 0, Integer.MAX_VALUE).size());
        }));
        runs.register(r, prefix);
        Errors.refuseTheRest(r, prefix);
    }

    /** The thread the path names: 404 when the caller's tenant has none (or the id cannot be one, or it is an assistant). */
    static Session thread(Context ctx) {
        return find(Gate.tenant(ctx), ctx.pathParam("thread_id"));
    }

    static Session find(Tenant tenant, String id) {
        try {
            SessionInfo.checkId(id, "thread_id");
        } catch (InvalidInputException e) {
            throw Errors.notFound("thread");
        }
        return tenant.find(id).filter(s -> !"assistant".equals(s.info().metadata().get(Assistants.KIND)))
                .orElseThrow(() -> Errors.notFound("thread"));
    }

    private static void noQuery(Context ctx) {
        for (String q : ctx.queryParamMap().keySet()) {
            throw Body.unsupported(q, "this endpoint takes no query parameters");
        }
    }

    private static void subgraphsOnly(Context ctx) {
        for (Map.Entry<String, List<String>> q : ctx.queryParamMap().entrySet()) {
            if (!q.getKey().equals("subgraphs")) {
                throw Body.unsupported(q.getKey(), "this endpoint takes only subgraphs=false");
            }
            if (!q.getValue().equals(List.of("false"))) {
                throw Body.unsupported("subgraphs", "a Threadline session has no subgraphs");
            }
        }
    }

    static long seq(String text, String field) {
        try {
            long n = Long.parseLong(text);
            if (n >= 1 && n <= (1L << 53)) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw ApiException.invalid(field, "must be a checkpoint id of this thread (a journal seq, a whole number)");
    }

    /** The seq of {@code checkpoint.checkpoint_id} (another thread's checkpoint is refused), or null when not given. */
    static Long checkpointSeq(Body c, Session s) {
        if (c == null) {
            return null;
        }
        String thread = c.string("thread_id", 128);
        if (thread != null && !thread.equals(s.id())) {
            throw Body.unsupported(c.name("thread_id"), "must be this thread's id");
        }
        String ns = c.string("checkpoint_ns", 100);
        if (ns != null && !ns.isEmpty()) {
            throw Body.unsupported(c.name("checkpoint_ns"), "a Threadline session has one namespace, ''");
        }
        String id = c.string("checkpoint_id", 20);
        return id == null ? null : seq(id, c.name("checkpoint_id"));
    }

    private static Instant updatedAt(Session s) {
        List<Checkpoint> last = s.history().checkpoints(PageRequest.before(Long.MAX_VALUE, 1)).items();
        return last.isEmpty() ? s.info().createdAt() : last.getLast().time();
    }

    static ObjectNode thread(Session s) {
        return Views.thread(s.info(), s.state(), updatedAt(s));
    }

    /** The state at {@code seq} (null: the head) with its checkpoint's metadata and its parent. */
    private static ObjectNode state(Session s, Long seq) {
        long at = seq != null ? seq : s.state().seq();
        State state = seq == null ? s.state() : s.history().stateAt(seq);
        List<Checkpoint> around = s.history().checkpoints(PageRequest.before(at + 1, 2)).items();
        Checkpoint cp = null;
        Long parent = null;
        for (Checkpoint c : around) {
            if (c.seq() == at) {
                cp = c;
            } else if (c.seq() < at) {
                parent = c.seq();
            }
        }
        if (seq != null && cp == null) {
            throw ApiException.invalid("checkpoint_id", "is not a checkpoint of this thread");
        }
        return Views.threadState(s.id(), state, cp, parent);
    }

    private void create(Context ctx) {
        Body b = Body.parse(ctx.bodyAsBytes(), CREATE);
        Tenant tenant = Gate.tenant(ctx);
        String id = b.string("thread_id", 128);
        String ifExists = b.oneOf("if_exists", Set.of("raise", "do_nothing"));
        Map<String, String> metadata = new LinkedHashMap<>();
        Map<String, String> given = b.stringMap("metadata", host.maxMetadataPairs(), host.maxValueChars(),
                host.maxValueChars());
        if (given != null) {
            metadata.putAll(given);
        }
        if (metadata.containsKey(Assistants.KIND)) {
            throw Body.unsupported("metadata." + Assistants.KIND, "is reserved for assistants");
        }
        String assistant = metadata.getOrDefault("assistant_id", metadata.getOrDefault("graph_id", Assistants.DEFAULT));
        SessionConfig config;
        try {
            config = Assistants.config(tenant, assistant, host.sessionDefaults());
        } catch (ApiException e) {
            throw Body.unsupported(metadata.containsKey("assistant_id") ? "metadata.assistant_id" : "metadata.graph_id",
                    "names no assistant of your tenant: a thread runs on its assistant's config");
        }
        metadata.put("assistant_id", assistant);
        Duration ttl = ttl(b);
        CommandOptions options = Idempotency.options(ctx);
        if (options.commandId().isPresent()) { // a retry names the same thread, and the core replays the first create
            if (id == null) {
                id = Idempotency.uuid("thread", options.commandId().get());
            }
            SessionInfo.checkId(id, "thread_id");
            try {
                Errors.send(ctx, 200, thread(tenant.with(options).create(new NewSession(id, null, config, metadata, ttl))));
            } catch (dev.threadline.core.error.SessionExistsException e) {
                throw new ApiException(409, "thread-exists", "thread_id", "a thread with this id exists");
            }
            return;
        }
        if (id == null) {
            id = UUID.randomUUID().toString();
        } else {
            SessionInfo.checkId(id, "thread_id");
            var existing = tenant.find(id);
            if (existing.isPresent() && "do_nothing".equals(ifExists)) {
                Errors.send(ctx, 200, thread(find(tenant, id)));
                return;
            }
            if (existing.isPresent()) {
                throw new ApiException(409, "thread-exists", "thread_id", "a thread with this id exists");
            }
        }
        Session s = tenant.create(new NewSession(id, null, config, metadata, ttl));
        Errors.send(ctx, 200, thread(s));
    }

    private static Duration ttl(Body b) {
        Body t = b.object("ttl", Set.of("ttl", "strategy"));
        if (t == null) {
            return null;
        }
        t.oneOf("strategy", Set.of("delete"));
        Long minutes = t.integer("ttl", 1, 100L * 365 * 24 * 60);
        return minutes == null ? null : Duration.ofMinutes(minutes);
    }

    private void search(Context ctx) {
        Body b = Body.parse(ctx.bodyAsBytes(), SEARCH);
        b.oneOf("sort_by", Set.of("updated_at"));
        b.oneOf("sort_order", Set.of("desc"));
        int limit = b.has("limit") ? b.integer("limit", 1, 1000).intValue() : 10;
        long offset = b.has("offset") ? b.integer("offset", 0, 1_000_000) : 0;
        Set<String> ids = null;
        JsonNode idList = b.node("ids");
        if (idList != null) {
            if (!idList.isArray() || idList.size() > 1000) {
                throw ApiException.invalid("ids", "must be an array of at most 1000 thread ids");
            }
            ids = new HashSet<>();
            for (JsonNode i : idList) {
                if (!i.isTextual()) {
                    throw ApiException.invalid("ids", "must be an array of thread ids (strings)");
                }
                ids.add(i.textValue());
            }
        }
        ArrayNode out = Json.mapper().createArrayNode();
        matching(Gate.tenant(ctx), b, ids, offset, limit).forEach(out::add);
        Errors.send(ctx, 200, out);
    }

    /** The threads (most recently updated first) that {@code b}'s metadata and status select, from {@code offset}. */
    private List<ObjectNode> matching(Tenant tenant, Body b, Set<String> ids, long offset, int limit) {
        String status = b.oneOf("status", Set.of("idle", "busy", "interrupted"));
        Map<String, String> metadata = b.stringMap("metadata", host.maxMetadataPairs(), host.maxValueChars(),
                host.maxValueChars());
        List<ObjectNode> out = new ArrayList<>();
        long skipped = 0;
        String cursor = null;
        do {
            Page<SessionSummary> page = tenant.sessions(new SessionFilter(null, metadata, 1000, cursor));
            for (SessionSummary sum : page.items()) {
                if ("assistant".equals(sum.info().metadata().get(Assistants.KIND)) || ids != null && !ids.contains(sum.info().id())) {
                    continue;
                }
                Session s = tenant.find(sum.info().id()).orElse(null);
                if (s == null) {
                    continue;
                }
                State st = s.state();
                if (status != null && !status.equals(Views.status(st.status()))) {
                    continue;
                }
                if (skipped++ < offset) {
                    continue;
                }
                out.add(Views.thread(sum.info(), st, sum.updatedAt()));
                if (out.size() >= limit) {
                    return out;
                }
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }

    private void updateState(Context ctx) {
        Session s = thread(ctx);
        Body b = Body.parse(ctx.bodyAsBytes(), UPDATE);
        Long at = b.has("checkpoint_id") ? (Long) seq(b.string("checkpoint_id", 20), "checkpoint_id")
                : checkpointSeq(b.object("checkpoint", CHECKPOINT), s);
        State head = s.state();
        if (at != null && at != head.seq()) {
            throw new ApiException(409, "not-the-head", "checkpoint_id", "Threadline updates only the thread's latest checkpoint ("
                    + head.seq() + "); to change the past, rewind to a checkpoint (POST /v1/sessions/{id}/rewind) and update the new branch");
        }
        JsonNode values = b.node("values");
        if (values == null || !values.isObject() || values.isEmpty()) {
            throw ApiException.invalid("values", "must be an object of the values to change (messages to append, variables to set)");
        }
        List<Edit> edits = new ArrayList<>();
        for (Map.Entry<String, JsonNode> v : values.properties()) {
            String name = v.getKey();
            if (name.equals("messages")) {
                JsonNode list = v.getValue().isArray() ? v.getValue() : Json.mapper().createArrayNode().add(v.getValue());
                for (int i = 0; i < list.size(); i++) {
                    edits.add(Edit.append(Messages.parse(list.get(i), "values.messages[" + i + "]", host.maxTextChars())));
                }
            } else if (name.startsWith(Views.RESERVED) || name.isBlank() || name.length() > 128) {
                throw ApiException.invalid("values." + (name.length() > 64 ? name.substring(0, 64) : name),
                        "is not a name a value can have here (1-128 characters, not starting with " + Views.RESERVED + ")");
            } else if (v.getValue().isNull()) {
                edits.add(Edit.remove(name));
            } else {
                edits.add(Edit.set(name, v.getValue()));
            }
        }
        var commit = s.with(Idempotency.options(ctx)).edit("langgraph-sdk", "threads.updateState", edits);
        long seq = commit.state().seq();
        ObjectNode o = Json.object();
        o.set("checkpoint", Views.checkpoint(s.id(), seq));
        o.set("configurable", Views.checkpoint(s.id(), seq));
        Errors.send(ctx, 200, o);
    }

    private void history(Context ctx) {
        Session s = thread(ctx);
        Body b = Body.parse(ctx.bodyAsBytes(), HISTORY);
        int limit = b.has("limit") ? b.integer("limit", 1, 1000).intValue() : 10;
        JsonNode beforeNode = b.node("before"); // a checkpoint, or a config holding one in configurable
        Long before = beforeNode == null ? null : checkpointSeq(Body.of(configurable(beforeNode),
                beforeNode.has("configurable") ? "before.configurable" : "before", CHECKPOINT), s);
        Long at = checkpointSeq(b.object("checkpoint", CHECKPOINT), s);
        long upTo = at != null ? at + 1 : before != null ? before : Long.MAX_VALUE;
        List<Checkpoint> page = s.history().checkpoints(PageRequest.before(upTo, Math.min(1000, limit + 1))).items();
        ArrayNode out = Json.mapper().createArrayNode();
        for (int i = page.size() - 1; i >= 0 && out.size() < limit; i--) {
            Checkpoint c = page.get(i);
            Long parent = i > 0 ? page.get(i - 1).seq() : null;
            if (parent == null && c.step() > 1) {
                List<Checkpoint> prev = s.history().checkpoints(PageRequest.before(c.seq(), 1)).items();
                parent = prev.isEmpty() ? null : prev.getFirst().seq();
            }
            out.add(Views.threadState(s.id(), s.history().stateAt(c.seq()), c, parent));
        }
        Errors.send(ctx, 200, out);
    }

    /** A checkpoint given as a config ({@code {configurable: {...}}}) or as the checkpoint itself. */
    private static JsonNode configurable(JsonNode before) {
        JsonNode c = before.get("configurable");
        return c != null && c.isObject() ? c : before;
    }
}
