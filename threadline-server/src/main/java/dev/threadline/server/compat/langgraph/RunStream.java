package dev.threadline.server.compat.langgraph;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnListener;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.state.State;
import dev.threadline.server.compat.Errors;
import dev.threadline.server.compat.Host;
import dev.threadline.server.http.Problem;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;

/**
 * One {@code runs.stream} response: the run's committed steps read back from the journal as LangGraph
 * stream events ({@code metadata} first; per step {@code values}: the thread's values then,
 * {@code updates}: {@code {node: {messages: [new messages], ...variables set}}} with node {@code agent}
 * for the model's reply and {@code tools} for tool results; {@code messages}: the model's text deltas as
 * {@code [AIMessageChunk, metadata]} tuples and each tool message whole). A client that goes away does
 * not stop the run. Used by one thread.
 */
final class RunStream {
    private static final Duration POLL = Duration.ofMillis(100);

    private final Host host;
    private final Context ctx;
    private final Session session;
    private final String runId;
    private final String command;
    private final Set<String> modes;
    private final ConcurrentLinkedQueue<TurnListener.TextDelta> deltas;
    private Host.Sse out;
    private int messageCount = -1;
    private int step;
    private boolean streamedText;

    RunStream(Host host, Context ctx, Session session, String runId, String command, Set<String> modes,
              ConcurrentLinkedQueue<TurnListener.TextDelta> deltas) {
        this.host = host;
        this.ctx = ctx;
        this.session = session;
        this.runId = runId;
        this.command = command;
        this.modes = modes;
        this.deltas = deltas;
    }

    void run(CompletableFuture<TurnResult> turn, long cursor) throws IOException {
        try {
            open(); // the run is accepted (its double-texting strategy applied): say so at once, as LangGraph does
            while (true) {
                if (turn.isDone()) {
                    TurnResult result;
                    try {
                        result = turn.get();
                    } catch (ExecutionException e) {
                        Problem p = Errors.problem(e.getCause());
                        send("error", Json.object().put("error", p.title()).put("message", p.detail()));
                        return;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    if (cursor >= result.seq()) {
                        flushDeltas();
                        return;
                    }
                }
                List<StoredEvent> batch = session.history().awaitEvents(cursor, POLL);
                flushDeltas();
                List<StoredEvent> group = new ArrayList<>();
                for (StoredEvent e : batch) {
                    cursor = e.seq();
                    if (!Runs.ofRun(e, command)) {
                        continue;
                    }
                    if (!group.isEmpty() && group.getLast().step() != e.step()) {
                        step(group);
                        group = new ArrayList<>();
                    }
                    group.add(e);
                }
                if (!group.isEmpty()) {
                    step(group);
                }
            }
        } catch (IOException gone) {
            Runs.log().debug("run stream client went away; the run goes on (thread={})", session.id());
        } catch (dev.threadline.core.error.ThreadlineException stopped) {
            Runs.log().debug("run stream ended: {} (thread={})", stopped.getClass().getSimpleName(), session.id());
        } finally {
            if (out != null) {
                out.close();
            }
        }
    }

    private void open() throws IOException {
        if (out == null) {
            out = host.openSse(ctx);
            send("metadata", Json.object().put("run_id", runId).put("thread_id", session.id()).put("attempt", 1));
        }
    }

    private void send(String event, Object data) throws IOException {
        out.event(null, event, Json.write(data));
    }

    private void flushDeltas() throws IOException {
        TurnListener.TextDelta d;
        while ((d = deltas.poll()) != null) {
            open();
            streamedText = true;
            ObjectNode chunk = Json.object().put("type", "AIMessageChunk").put("id", "run-" + runId + "-" + d.modelCall())
                    .put("content", d.text());
            chunk.putArray("tool_calls");
            chunk.putArray("tool_call_chunks");
            send("messages", Json.mapper().createArrayNode().add(chunk).add(metadata("agent")));
        }
    }

    private ObjectNode metadata(String node) {
        ObjectNode m = Json.object().put("langgraph_node", node).put("langgraph_step", step).put("thread_id", session.id())
                .put("run_id", runId);
        m.putArray("tags");
        return m;
    }

    /** One committed step of the run. */
    private void step(List<StoredEvent> events) throws IOException {
        open();
        step++;
        long seq = events.getLast().seq();
        State state = session.history().stateAt(seq);
        if (messageCount < 0) {
            messageCount = session.history().stateAt(events.getFirst().seq() - 1).messages().size();
        }
        List<Message> added = state.messages().subList(Math.min(messageCount, state.messages().size()), state.messages().size());
        int firstIndex = messageCount;
        messageCount = state.messages().size();
        boolean suspended = events.stream().anyMatch(e -> e.event() instanceof Event.TurnSuspended);
        if (modes.contains("values")) {
            send("values", suspended ? Runs.finalValues(state) : Views.values(state));
        }
        ArrayNode converted = Json.mapper().createArrayNode();
        for (int i = 0; i < added.size(); i++) {
            Views.addMessage(converted, added.get(i), firstIndex + i);
        }
        boolean fromModel = added.stream().anyMatch(m -> m.role() == Role.ASSISTANT);
        boolean onlyUser = !added.isEmpty() && added.stream().allMatch(m -> m.role() == Role.USER);
        String node = fromModel ? "agent" : "tools";
        if (modes.contains("updates")) {
            ObjectNode update = Json.object();
            if (!converted.isEmpty()) {
                update.set("messages", converted);
            }
            for (StoredEvent e : events) {
                if (e.event() instanceof Event.VariablesChanged v && v.scope() == dev.threadline.core.state.VariableScope.SESSION) {
                    for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> kv : v.set().entrySet()) {
                        if (!kv.getKey().startsWith(Views.RESERVED)) {
                            update.set(kv.getKey(), kv.getValue());
                        }
                    }
                }
            }
            if (!update.isEmpty() && !onlyUser) {
                send("updates", Json.object().set(node, update));
            }
            if (suspended) {
                send("updates", Json.object().set("__interrupt__", Views.interrupts(state)));
            }
        }
        if (modes.contains("messages-tuple")) {
            for (com.fasterxml.jackson.databind.JsonNode m : converted) {
                String type = m.path("type").asText();
                if (type.equals("tool") || type.equals("ai") && !streamedText) {
                    send("messages", Json.mapper().createArrayNode().add(m).add(metadata(type.equals("tool") ? "tools" : "agent")));
                }
            }
            if (fromModel) {
                streamedText = false;
            }
        }
    }
}
