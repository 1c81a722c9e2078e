package dev.threadline.server.compat.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.state.Edit;
import dev.threadline.server.compat.Body;
import dev.threadline.server.compat.Errors;
import dev.threadline.server.compat.Gate;
import dev.threadline.server.compat.Host;
import dev.threadline.server.http.Idempotency;
import dev.threadline.server.http.ApiException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.security.SecureRandom;

/**
 * The OpenAI Conversations API as the OpenAI SDK ({@code openai}) calls it, over Threadline sessions: a
 * conversation is a session (created with the server's default config), its items the transcript's
 * messages, tool calls and tool results. Metadata keeps OpenAI's limits (16 pairs, 64-character keys,
 * 512-character values); an update is recorded in the journal as a {@code StateEdited} step (a
 * session's own metadata is fixed at creation). Items are appended as {@code StateEdited} steps too;
 * deleting one is refused, since Threadline's history is append-only. Thread-safe.
 */
public final class OpenAiApi {
    static final String METADATA_VARIABLE = "_compat.openai.metadata";
    private static final int MAX_PAIRS = 16;
    private static final int MAX_KEY = 64;
    private static final int MAX_VALUE = 512;
    private static final int MAX_ITEMS = 20;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Host host;

    /** The surface over {@code host}. */
    public OpenAiApi(Host host) {
        this.host = host;
    }

    /** Adds the routes under {@code prefix} (e.g. {@code /openai/v1}), behind the key gate. */
    public void register(RoutesConfig r, String prefix) {
        r.before(prefix + "/*", Gate.of(host, List.of("Authorization")));
        r.post(prefix + "/conversations", Errors.guarded(this::create));
        r.get(prefix + "/conversations/{id}", Errors.guarded(ctx -> {
            noQuery(ctx);
            Errors.send(ctx, 200, view(conversation(ctx)));
        }));
        r.post(prefix + "/conversations/{id}", Errors.guarded(this::update));
        r.delete(prefix + "/conversations/{id}", Errors.guarded(ctx -> {
            noQuery(ctx);
            Session s = conversation(ctx);
            Gate.tenant(ctx).delete(s.id());
            Errors.send(ctx, 200, Json.object().put("id", s.id()).put("object", "conversation.deleted").put("deleted", true));
        }));
        r.post(prefix + "/conversations/{id}/items", Errors.guarded(this::addItems));
        r.get(prefix + "/conversations/{id}/items", Errors.guarded(this::listItems));
        r.get(prefix + "/conversations/{id}/items/{item_id}", Errors.guarded(ctx -> {
            noQuery(ctx);
            Session s = conversation(ctx);
            String id = ctx.pathParam("item_id");
            ObjectNode item = Items.of(s.state().messages()).stream().filter(i -> i.path("id").asText().equals(id)).findFirst()
                    .orElseThrow(() -> Errors.notFound("item"));
            Errors.send(ctx, 200, item);
        }));
        r.delete(prefix + "/conversations/{id}/items/{item_id}", Errors.guarded(ctx -> {
            conversation(ctx);
            throw Body.unsupported("item_id", "Threadline's history is append-only: an item cannot be deleted; "
                    + "rewind the session to a checkpoint before it (POST /v1/sessions/{id}/rewind) to continue without it");
        }));
        Errors.refuseTheRest(r, prefix);
    }

    private static void noQuery(Context ctx) {
        for (String q : ctx.queryParamMap().keySet()) {
            throw Body.unsupported(param(q), "this endpoint takes no query parameters");
        }
    }

    /** A query parameter's name as a client wrote it ({@code include[]} is the SDK's form of {@code include}). */
    private static String param(String q) {
        return q.endsWith("[]") ? q.substring(0, q.length() - 2) : q;
    }

    private static Session conversation(Context ctx) {
        String id = ctx.pathParam("id");
        try {
            SessionInfo.checkId(id, "id");
        } catch (InvalidInputException e) {
            throw Errors.notFound("conversation");
        }
        return Gate.tenant(ctx).find(id).orElseThrow(() -> Errors.notFound("conversation"));
    }

    private static Map<String, String> metadata(Body b) {
        return b.stringMap("metadata", MAX_PAIRS, MAX_KEY, MAX_VALUE);
    }

    private static ObjectNode view(Session s) {
        ObjectNode o = Json.object().put("id", s.id()).put("object", "conversation")
                .put("created_at", s.info().createdAt().getEpochSecond());
        JsonNode updated = s.state().variables().get(METADATA_VARIABLE);
        if (updated != null) {
            o.set("metadata", updated);
        } else {
            ObjectNode meta = o.putObject("metadata");
            new java.util.TreeMap<>(s.info().metadata()).forEach(meta::put);
        }
        return o;
    }

    private List<Edit> appends(JsonNode items, String name) {
        if (items == null) {
            return List.of();
        }
        if (!items.isArray() || items.size() > MAX_ITEMS) {
            throw ApiException.invalid(name, "must be an array of at most " + MAX_ITEMS + " items");
        }
        List<Edit> edits = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Message m = Items.parse(items.get(i), name + "[" + i + "]", host.maxTextChars());
            edits.add(Edit.append(m));
        }
        return edits;
    }

    private void create(Context ctx) {
        noQuery(ctx);
        Body b = Body.parse(ctx.bodyAsBytes(), Set.of("items", "metadata"));
        Map<String, String> metadata = metadata(b);
        List<Edit> edits = appends(b.node("items"), "items");
        Tenant tenant = Gate.tenant(ctx);
        CommandOptions options = Idempotency.options(ctx);
        String id;
        if (options.commandId().isPresent()) { // a retry names the same conversation, and the core replays the first create
            id = "conv_" + Idempotency.hex("conversation", options.commandId().get());
        } else {
            byte[] random = new byte[24];
            RANDOM.nextBytes(random);
            id = "conv_" + HexFormat.of().formatHex(random);
        }
        Session s;
        try {
            s = tenant.with(options).create(new NewSession(id, null, host.sessionDefaults(),
                    metadata == null ? Map.of() : new LinkedHashMap<>(metadata), null));
        } catch (dev.threadline.core.error.SessionExistsException e) {
            throw new ApiException(422, "idempotency-key-reused", Idempotency.HEADER, "this key created another conversation");
        }
        if (!edits.isEmpty()) {
            s.with(options.commandId().map(k -> CommandOptions.builder().commandId("items:" + Idempotency.hex("items", k)).build())
                    .orElse(CommandOptions.NONE)).edit("openai-sdk", "conversations.create", edits);
        }
        Errors.send(ctx, 200, view(s));
    }

    private void update(Context ctx) {
        noQuery(ctx);
        Session s = conversation(ctx);
        Body b = Body.parse(ctx.bodyAsBytes(), Set.of("metadata"));
        Map<String, String> metadata = metadata(b);
        ObjectNode value = Json.object();
        if (metadata != null) {
            new java.util.TreeMap<>(metadata).forEach(value::put);
        }
        s.with(Idempotency.options(ctx)).edit("openai-sdk", "conversations.update", List.of(Edit.set(METADATA_VARIABLE, value)));
        Errors.send(ctx, 200, view(s));
    }

    private void addItems(Context ctx) {
        Session s = conversation(ctx);
        for (String q : ctx.queryParamMap().keySet()) {
            throw Body.unsupported(param(q), "items.create takes no query parameters here (include is not supported)");
        }
        Body b = Body.parse(ctx.bodyAsBytes(), Set.of("items"));
        List<Edit> edits = appends(b.node("items"), "items");
        if (edits.isEmpty()) {
            throw ApiException.invalid("items", "is required: at least one item");
        }
        var commit = s.with(Idempotency.options(ctx)).edit("openai-sdk", "conversations.items.create", edits);
        int first = commit.state().messages().size() - edits.size(); // a replay answers the first call's items
        List<ObjectNode> added = Items.of(commit.state().messages()).stream().filter(i -> index(i.path("id").asText()) >= first).toList();
        Errors.send(ctx, 200, list(added, false));
    }

    /** The transcript index an item id names. */
    static int index(String itemId) {
        String[] parts = itemId.split("_");
        return parts.length < 2 ? -1 : Integer.parseInt(parts[1]);
    }

    private static ObjectNode list(List<ObjectNode> items, boolean hasMore) {
        ObjectNode o = Json.object().put("object", "list");
        items.forEach(o.putArray("data")::add);
        if (items.isEmpty()) {
            o.putNull("first_id");
            o.putNull("last_id");
        } else {
            o.put("first_id", items.getFirst().path("id").asText()).put("last_id", items.getLast().path("id").asText());
        }
        o.put("has_more", hasMore);
        return o;
    }

    private void listItems(Context ctx) {
        Session s = conversation(ctx);
        for (String q : ctx.queryParamMap().keySet()) {
            if (!Set.of("after", "limit", "order").contains(q)) {
                throw Body.unsupported(param(q), "items.list takes after, limit and order");
            }
        }
        String order = ctx.queryParam("order");
        if (order != null && !order.equals("asc") && !order.equals("desc")) {
            throw ApiException.invalid("order", "must be asc or desc");
        }
        int limit = 20;
        String l = ctx.queryParam("limit");
        if (l != null) {
            try {
                limit = Integer.parseInt(l);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > 100) {
                throw ApiException.invalid("limit", "must be a whole number from 1 to 100");
            }
        }
        List<ObjectNode> all = new ArrayList<>(Items.of(s.state().messages()));
        if (!"asc".equals(order)) {
            java.util.Collections.reverse(all);
        }
        String after = ctx.queryParam("after");
        int from = 0;
        if (after != null) {
            from = -1;
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).path("id").asText().equals(after)) {
                    from = i + 1;
                }
            }
            if (from < 0) {
                throw ApiException.invalid("after", "is no item of this conversation");
            }
        }
        int to = Math.min(all.size(), from + limit);
        Errors.send(ctx, 200, list(all.subList(from, to), to < all.size()));
    }
}
