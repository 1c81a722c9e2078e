package dev.threadline.server.compat.langgraph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.AsyncSession;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.PendingApproval;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.runtime.TurnListener;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.state.State;
import dev.threadline.server.compat.Body;
import dev.threadline.server.compat.Errors;
import dev.threadline.server.compat.Gate;
import dev.threadline.server.compat.Host;
import dev.threadline.server.http.Idempotency;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.Problem;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on a thread: {@code runs.wait} and {@code runs.stream}. A run is one Threadline command: a turn for
 * {@code input: {messages: [{role: "user", content}]}}, or, for {@code command: {resume}}, the approvals,
 * denials and answers of the calls the suspended turn waits for. {@code multitask_strategy} is the
 * double-texting strategy of the submit. The stream sends {@code metadata}, then per committed step
 * {@code values} and/or {@code updates}, and the model's text deltas as {@code messages} tuples
 * ({@code messages-tuple}); read from the journal, so what it shows is what was committed. Thread-safe.
 */
final class Runs {
    private static final Logger LOG = LoggerFactory.getLogger(Runs.class);
    private static final Set<String> FIELDS = Set.of("assistant_id", "input", "command", "stream_mode", "multitask_strategy",
            "if_not_exists", "config", "metadata", "on_disconnect", "stream_subgraphs", "stream_resumable", "on_completion");
    private static final Set<String> MODES = Set.of("values", "updates", "messages-tuple");

    private final Host host;

    Runs(Host host) {
        this.host = host;
    }

    void register(RoutesConfig r, String prefix) {
        r.post(prefix + "/threads/{thread_id}/runs/wait", Errors.guarded(ctx -> run(ctx, false)));
        r.post(prefix + "/threads/{thread_id}/runs/stream", Errors.guarded(ctx -> run(ctx, true)));
    }

    /** A parsed run request. {@code text} for a new turn, else {@code resume} (the value of command.resume). */
    private record Request(String assistant, String text, JsonNode resume, DoubleTexting strategy, Set<String> modes) {}

    private Request parse(Body b) {
        String assistant = b.string("assistant_id", 128);
        if (assistant == null) {
            throw ApiException.invalid("assistant_id", "is required ('default', or an assistant you created)");
        }
        Body config = b.object("config", Set.of("configurable", "tags"));
        if (config != null) {
            JsonNode c = config.node("configurable");
            if (c != null && !(c.isObject() && (c.isEmpty() || c.size() == 1 && c.has("thread_id")))) {
                throw Body.unsupported("config.configurable", "a thread's config is its assistant's, fixed when it was created");
            }
            if (config.node("tags") != null && !config.node("tags").isEmpty()) {
                throw Body.unsupported("config.tags", "runs take no tags");
            }
        }
        JsonNode meta = b.node("metadata");
        if (meta != null && !(meta.isObject() && meta.isEmpty())) {
            throw Body.unsupported("metadata", "runs keep no metadata; the journal records each command");
        }
        b.oneOf("on_disconnect", Set.of("continue"));
        b.oneOf("on_completion", Set.of("keep"));
        if (Boolean.TRUE.equals(b.bool("stream_subgraphs"))) {
            throw Body.unsupported("stream_subgraphs", "a Threadline session has no subgraphs");
        }
        if (Boolean.TRUE.equals(b.bool("stream_resumable"))) {
            throw Body.unsupported("stream_resumable", "follow GET /v1/sessions/{id}/events with Last-Event-ID to resume");
        }
        String mt = b.oneOf("multitask_strategy", Set.of("enqueue", "reject", "interrupt", "rollback"));
        DoubleTexting strategy = mt == null ? null : DoubleTexting.fromWire(mt);
        Set<String> modes = modes(b.node("stream_mode"));
        JsonNode input = b.node("input");
        Body command = b.object("command", Set.of("resume"));
        if (input != null && command != null) {
            throw ApiException.invalid("command", "send either input (a new message) or command (a resume), not both");
        }
        if (command != null) {
            JsonNode resume = command.node("resume");
            if (resume == null) {
                throw ApiException.invalid("command.resume", "is required");
            }
            return new Request(assistant, null, resume, strategy, modes);
        }
        if (input == null) {
            throw ApiException.invalid("input", "is required: {messages: [{role: 'user', content: '...'}]}");
        }
        Body in = Body.of(input, "input", Set.of("messages"));
        JsonNode messages = in.node("messages");
        if (messages == null || !messages.isArray() || messages.size() != 1) {
            throw Body.unsupported("input.messages", "a run takes exactly one new user message");
        }
        Message m = Messages.parse(messages.get(0), "input.messages[0]", host.maxTextChars());
        if (m.role() != Role.USER) {
            throw Body.unsupported("input.messages[0].role", "a run's message is the user's; append others with threads.updateState");
        }
        if (m.text().isBlank()) {
            throw ApiException.invalid("input.messages[0].content", "must not be blank");
        }
        return new Request(assistant, m.text(), null, strategy, modes);
    }

    private static Set<String> modes(JsonNode mode) {
        Set<String> out = new LinkedHashSet<>();
        if (mode == null) {
            out.add("values");
            return out;
        }
        List<JsonNode> list = new ArrayList<>();
        if (mode.isArray()) {
            mode.forEach(list::add);
        } else {
            list.add(mode);
        }
        for (JsonNode m : list) {
            if (!m.isTextual() || !MODES.contains(m.asText())) {
                throw Body.unsupported("stream_mode", "'" + m.asText() + "' is not supported; use " + MODES);
            }
            out.add(m.asText());
        }
        if (out.isEmpty()) {
            out.add("values");
        }
        return out;
    }

    private Session session(Context ctx, Body b, Request req) {
        Tenant tenant = Gate.tenant(ctx);
        String ifNotExists = b.oneOf("if_not_exists", Set.of("create", "reject"));
        SessionConfig assistant = Assistants.config(tenant, req.assistant(), host.sessionDefaults());
        String id = ctx.pathParam("thread_id");
        Session s;
        try {
            s = LangGraphApi.find(tenant, id);
        } catch (ApiException notFound) {
            if (!"create".equals(ifNotExists) || req.text() == null) {
                throw notFound;
            }
            try {
                return tenant.create(new NewSession(dev.threadline.core.session.SessionInfo.checkId(id, "thread_id"), null, assistant,
                        Map.of("assistant_id", req.assistant()), null));
            } catch (dev.threadline.core.error.SessionExistsException raced) {
                return LangGraphApi.find(tenant, id); // another request created it meanwhile
            }
        }
        String own = s.info().metadata().getOrDefault("assistant_id", Assistants.DEFAULT);
        if (!own.equals(req.assistant()) && !assistant.equals(s.info().config())) {
            throw Body.unsupported("assistant_id", "this thread runs on assistant '" + own
                    + "' (a Threadline session's config is fixed when it is created); create a thread with metadata.assistant_id");
        }
        return s;
    }

    private void run(Context ctx, boolean streaming) throws IOException {
        for (String q : ctx.queryParamMap().keySet()) {
            throw Body.unsupported(q, "runs take no query parameters here (a Threadline session has one namespace)");
        }
        Body b = Body.parse(ctx.bodyAsBytes(), FIELDS);
        Request req = parse(b);
        Session s = session(ctx, b, req);
        String runId = UUID.randomUUID().toString();
        CommandOptions keyed = Idempotency.options(ctx);
        String command = keyed.commandId().orElse("lg-" + runId); // a retry with the key replays the first run
        ConcurrentLinkedQueue<TurnListener.TextDelta> deltas = new ConcurrentLinkedQueue<>();
        CommandOptions.Builder ob = CommandOptions.builder().commandId(command);
        if (req.strategy() != null) {
            ob.doubleTexting(req.strategy());
        }
        if (streaming && req.modes().contains("messages-tuple")) {
            ob.listener(deltas::add);
        }
        CommandOptions options = ob.build();
        long before = s.state().seq();
        String tenant = Gate.tenant(ctx).id();
        CompletableFuture<TurnResult> turn = req.text() != null ? host.startTurn(tenant, s, req.text(), options)
                : resume(tenant, s, req.resume(), options);
        ctx.header("Content-Location", "/threads/" + s.id() + "/runs/" + runId);
        if (!streaming) {
            waitFor(ctx, s, turn);
            return;
        }
        new RunStream(host, ctx, s, runId, command, req.modes(), deltas).run(turn, before);
    }

    /** The decisions of {@code resume} applied one by one (each a command of its own), tracked by the server like a turn. */
    private CompletableFuture<TurnResult> resume(String tenant, Session s, JsonNode resume, CommandOptions options) {
        List<PendingApproval> pending = s.pendingApprovals();
        if (pending.isEmpty()) {
            throw new ApiException(409, "nothing-to-resume", "command.resume", "the thread waits for no approval or answer");
        }
        List<Map.Entry<PendingApproval, JsonNode>> decisions = new ArrayList<>();
        boolean byId = resume.isObject() && !resume.isEmpty();
        for (var it = resume.fieldNames(); byId && it.hasNext(); ) {
            String key = it.next();
            byId = pending.stream().anyMatch(p -> p.toolUseId().equals(key));
        }
        if (byId) {
            for (PendingApproval p : pending) {
                if (resume.has(p.toolUseId())) {
                    decisions.add(Map.entry(p, resume.get(p.toolUseId())));
                }
            }
        } else if (pending.size() == 1) {
            decisions.add(Map.entry(pending.getFirst(), resume));
        } else {
            throw ApiException.invalid("command.resume", pending.size() + " calls wait: resume with {interrupt_id: value} for each");
        }
        for (var d : decisions) {
            check(d.getKey(), d.getValue());
        }
        return host.runCommand(tenant, s, options, () -> {
            CompletableFuture<TurnResult> last = CompletableFuture.completedFuture(null);
            int k = 0;
            for (var d : decisions) { // one after the other: each is queued once the one before has ended
                CommandOptions.Builder ob = CommandOptions.builder().commandId(options.commandId().orElseThrow() + "-" + k++);
                options.listener().ifPresent(ob::listener);
                CommandOptions o = ob.build();
                last = last.thenCompose(previous -> decide(s.with(o).async(), d.getKey(), d.getValue()));
            }
            return last;
        });
    }

    /** Refuses a resume value that does not fit the call before anything is applied. */
    private static void check(PendingApproval p, JsonNode v) {
        String field = "command.resume";
        if (p.kind() == PendingApproval.Kind.QUESTION) {
            if (!v.isTextual() || v.asText().isBlank()) {
                throw ApiException.invalid(field, "the call " + p.toolUseId() + " asks a question: resume with the answer's text");
            }
            return;
        }
        if (v.isBoolean()) {
            return;
        }
        Body d = Body.of(v, field, Set.of("type", "args", "message"));
        String type = d.oneOf("type", Set.of("approve", "edit", "reject"));
        if (type == null) {
            throw ApiException.invalid(field + ".type", "is required: approve, edit or reject");
        }
        if (type.equals("edit") && (d.node("args") == null || !d.node("args").isObject())) {
            throw ApiException.invalid(field + ".args", "an edit gives the arguments to run with");
        }
    }

    /** Queues the decision {@code v} on the call {@code p} through {@code s}, a session's async view with the decision's options. */
    private static CompletableFuture<TurnResult> decide(AsyncSession s, PendingApproval p, JsonNode v) {
        if (p.kind() == PendingApproval.Kind.QUESTION) {
            return s.answer(p.toolUseId(), v.asText());
        }
        if (v.isBoolean()) {
            return v.asBoolean() ? s.approve(p.toolUseId()) : s.deny(p.toolUseId(), "rejected");
        }
        return switch (v.path("type").asText()) {
            case "approve" -> s.approve(p.toolUseId());
            case "edit" -> s.approve(p.toolUseId(), v.get("args"));
            default -> s.deny(p.toolUseId(), v.path("message").asText("rejected").isBlank() ? "rejected" : v.path("message").asText("rejected"));
        };
    }

    /** {@code runs.wait}: the thread's values once the run ends, with {@code __interrupt__} when it waits for a person. */
    private static void waitFor(Context ctx, Session s, CompletableFuture<TurnResult> turn) {
        try {
            turn.get();
        } catch (ExecutionException e) {
            Problem p = Errors.problem(e.getCause());
            if (p.status() < 500) {
                Errors.write(ctx, e.getCause());
                return;
            }
            ObjectNode err = Json.object();
            err.putObject("__error__").put("error", p.title()).put("message", p.detail());
            Errors.send(ctx, 200, err);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "shutting-down", null, "the server is shutting down; the run goes on in the journal");
        }
        Errors.send(ctx, 200, finalValues(s.state()));
    }

    static ObjectNode finalValues(State state) {
        ObjectNode values = Views.values(state);
        ArrayNode interrupts = Views.interrupts(state);
        if (!interrupts.isEmpty()) {
            values.set("__interrupt__", interrupts);
        }
        return values;
    }

    /** Whether {@code e} belongs to the run's command (a resume's decisions carry {@code <command>-<k>}). */
    static boolean ofRun(StoredEvent e, String command) {
        String c = e.commandId();
        return c != null && (c.equals(command) || c.startsWith(command + "-"));
    }


    static Logger log() {
        return LOG;
    }
}
