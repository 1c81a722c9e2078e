package dev.threadline.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.runtime.Commit;
import dev.threadline.core.runtime.PendingApproval;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import dev.threadline.server.http.Query;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The human-in-the-loop routes: the calls a suspended turn waits on ({@code GET .../approvals}), a
 * decision on one ({@code POST .../approvals/{toolUseId}}), an answer to an {@code ask_user} question
 * ({@code POST .../answers/{toolUseId}}), and typed state edits ({@code POST .../edits}). A decision
 * or an answer continues the turn, so it answers like a message: the result as JSON, or the turn's
 * stream with {@code Accept: text/event-stream}. Every refusal is a problem naming why, and writes
 * nothing. Stateless apart from the shared {@link Api}.
 */
final class HumanRoutes {
    private static final Set<String> DECISION = Set.of("decision", "reason", "arguments");
    private static final Set<String> ANSWER = Set.of("text");
    private static final Set<String> EDITS = Set.of("author", "reason", "edits");
    private static final Set<String> EDIT = Set.of("kind", "scope", "name", "value", "role", "text", "content");
    private static final int MAX_EDITS = 100;
    private static final int MAX_TOOL_USE_ID = 255;

    private final Api api;
    private final TurnRoutes turns;

    HumanRoutes(Api api, TurnRoutes turns) {
        this.api = api;
        this.turns = turns;
    }

    void register(RoutesConfig r) {
        r.get("/v1/sessions/{id}/approvals", this::pending);
        r.post("/v1/sessions/{id}/approvals/{toolUseId}", this::decide);
        r.post("/v1/sessions/{id}/answers/{toolUseId}", this::answer);
        r.post("/v1/sessions/{id}/edits", this::edit);
    }

    private void pending(Context ctx) {
        Session s = api.session(ctx);
        Query.only(ctx);
        ObjectNode o = Json.object().put("sessionId", s.id()).put("status", s.state().status().wireName());
        ArrayNode items = o.putArray("items");
        for (PendingApproval p : s.pendingApprovals()) {
            ObjectNode item = items.addObject();
            item.put("kind", p.kind().name().toLowerCase(Locale.ROOT));
            item.put("toolUseId", p.toolUseId());
            item.put("name", p.name());
            item.set("arguments", p.arguments());
            if (p.question() != null) {
                item.put("question", p.question());
            }
        }
        Api.send(ctx, 200, o);
    }

    private void decide(Context ctx) throws IOException {
        Session s = api.session(ctx);
        String toolUseId = toolUseId(ctx);
        String tenant = api.tenant(ctx).id();
        JsonBody body = api.body(ctx, DECISION);
        String decision = body.requiredString("decision", 20);
        String reason = body.string("reason", api.limits().maxTextChars());
        JsonNode arguments = body.value("arguments");
        var options = api.options(ctx);
        switch (decision) {
            case "approve" -> {
                if (reason != null) {
                    throw ApiException.invalid("reason", "only a deny takes a reason (an approval runs the call)");
                }
                if (arguments != null && !arguments.isObject()) {
                    throw ApiException.invalid("arguments", "must be an object: the call's edited arguments");
                }
                turns.answer(ctx, s, options, o -> api.turnLimit.follow(tenant, s, o, refused(() -> arguments == null
                        ? s.with(o).async().approve(toolUseId) : s.with(o).async().approve(toolUseId, arguments))));
            }
            case "deny" -> {
                if (arguments != null) {
                    throw ApiException.invalid("arguments", "only an approval takes edited arguments (a denied call never runs)");
                }
                if (reason == null || reason.isBlank()) {
                    throw ApiException.invalid("reason", "is required to deny: the model reads it as the call's error result");
                }
                turns.answer(ctx, s, options, o -> api.turnLimit.follow(tenant, s, o, refused(() -> s.with(o).async().deny(toolUseId, reason))));
            }
            default -> throw ApiException.invalid("decision", "must be \"approve\" or \"deny\"");
        }
    }

    private void answer(Context ctx) throws IOException {
        Session s = api.session(ctx);
        String toolUseId = toolUseId(ctx);
        String tenant = api.tenant(ctx).id();
        String text = api.body(ctx, ANSWER).requiredString("text", api.limits().maxTextChars());
        if (text.isBlank()) {
            throw ApiException.invalid("text", "must not be blank");
        }
        var options = api.options(ctx);
        turns.answer(ctx, s, options, o -> api.turnLimit.follow(tenant, s, o, refused(() -> s.with(o).async().answer(toolUseId, text))));
    }

    private void edit(Context ctx) {
        Session s = api.session(ctx);
        JsonBody body = api.body(ctx, EDITS);
        String author = body.requiredString("author", api.limits().maxValueChars());
        if (author.isBlank()) {
            throw ApiException.invalid("author", "must not be blank: who made the edit");
        }
        String reason = body.string("reason", api.limits().maxTextChars());
        List<JsonBody> items = body.objects("edits", MAX_EDITS, EDIT);
        if (items == null || items.isEmpty()) {
            throw ApiException.invalid("edits", "is required: at least one edit");
        }
        List<Edit> edits = new ArrayList<>();
        for (JsonBody item : items) {
            Edit e = edit(item);
            edits.add(e);
        }
        Commit c = s.with(api.options(ctx)).edit(author, reason, edits);
        Api.send(ctx, 200, Views.state(s.id(), c.state()));
    }

    private Edit edit(JsonBody e) {
        String at = e.prefix();
        String kind = e.requiredString("kind", 32);
        int maxName = api.limits().maxValueChars();
        try {
            return switch (kind) {
                case "set_variable" -> {
                    only(e, Set.of("kind", "scope", "name", "value"));
                    JsonNode value = e.value("value");
                    if (value == null) {
                        throw ApiException.invalid(at + "value", "is required (to delete a variable, use remove_variable)");
                    }
                    yield new Edit.SetVariable(scope(e), name(e, maxName), value);
                }
                case "remove_variable" -> {
                    only(e, Set.of("kind", "scope", "name"));
                    yield new Edit.RemoveVariable(scope(e), name(e, maxName));
                }
                case "append_message" -> {
                    only(e, Set.of("kind", "role", "text", "content"));
                    yield new Edit.AppendMessage(message(e));
                }
                default -> throw ApiException.invalid(at + "kind", "must be set_variable, remove_variable or append_message");
            };
        } catch (InvalidInputException x) {
            throw ApiException.invalid(at + x.field(), x.reason());
        }
    }

    private static void only(JsonBody e, Set<String> allowed) {
        for (String f : EDIT) {
            if (!allowed.contains(f) && e.value(f) != null) {
                throw ApiException.invalid(e.prefix() + f, "not a field of this kind of edit; it takes " + allowed);
            }
        }
    }

    private static VariableScope scope(JsonBody e) {
        String scope = e.string("scope", 16);
        return scope == null ? VariableScope.SESSION : VariableScope.parse(scope);
    }

    private static String name(JsonBody e, int max) {
        String name = e.requiredString("name", max);
        if (name.isBlank()) {
            throw ApiException.invalid(e.prefix() + "name", "must not be blank");
        }
        return name;
    }

    private Message message(JsonBody e) {
        String role = e.requiredString("role", 16);
        String text = e.string("text", api.limits().maxTextChars());
        JsonNode content = e.value("content");
        if ((text == null) == (content == null)) {
            throw ApiException.invalid(e.prefix() + "text", "give the message's text, or its content blocks, not both");
        }
        List<ContentBlock> blocks;
        if (content != null) {
            if (!content.isArray() || content.isEmpty()) {
                throw ApiException.invalid(e.prefix() + "content", "must be a non-empty array of content blocks");
            }
            try {
                blocks = List.of(Json.mapper().treeToValue(content, ContentBlock[].class));
            } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException | InvalidInputException x) {
                throw ApiException.invalid(e.prefix() + "content", "holds a block that is not a content block (text, tool_use, tool_result)");
            }
        } else {
            blocks = List.of(ContentBlock.text(text));
        }
        return switch (role) {
            case "user" -> new Message(Role.USER, blocks, null, null);
            case "system" -> new Message(Role.SYSTEM, blocks, null, null);
            case "assistant" -> new Message(Role.ASSISTANT, blocks, dev.threadline.core.model.StopReason.END_TURN, dev.threadline.core.model.Usage.ZERO);
            case "tool" -> new Message(Role.TOOL, blocks, null, null);
            default -> throw ApiException.invalid(e.prefix() + "role", "must be user, system, assistant or tool");
        };
    }

    /** The path's tool_use id: 1-255 characters of valid text. */
    private static String toolUseId(Context ctx) {
        String id = ctx.pathParam("toolUseId");
        if (id.isBlank()) {
            throw ApiException.invalid("toolUseId", "must not be blank");
        }
        return JsonBody.checked("toolUseId", id, MAX_TOOL_USE_ID);
    }

    /**
     * The core's refusals of a decision or answer as the API names them: a call that does not wait
     * (unknown, or decided already) is a 409 {@code not-awaiting}; edited arguments the schema refuses
     * are a 422 {@code invalid-arguments}. Nothing was written either way. The core may refuse at once
     * or when the queued command runs: both are translated, the first as a failed future.
     */
    private static Supplier<CompletableFuture<TurnResult>> refused(Supplier<CompletableFuture<TurnResult>> command) {
        return () -> {
            CompletableFuture<TurnResult> turn;
            try {
                turn = command.get();
            } catch (InvalidInputException e) {
                turn = CompletableFuture.failedFuture(e);
            }
            return turn.exceptionally(error -> {
                Throwable cause = error instanceof CompletionException ce && ce.getCause() != null ? ce.getCause() : error;
                if (cause instanceof InvalidInputException e) {
                    switch (String.valueOf(e.field())) {
                        case "toolUseId" -> throw new ApiException(409, "not-awaiting", "toolUseId", e.getMessage());
                        case "arguments" -> throw new ApiException(422, "invalid-arguments", "arguments", e.getMessage());
                        default -> { }
                    }
                }
                throw error instanceof CompletionException ce ? ce : new CompletionException(error);
            });
        };
    }
}
