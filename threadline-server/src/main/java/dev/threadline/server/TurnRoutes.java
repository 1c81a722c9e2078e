package dev.threadline.server;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnListener;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import dev.threadline.server.http.Problems;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/sessions/{id}/messages}: runs a turn, meeting a running one with the request's
 * double-texting {@code strategy} (or the session's). With {@code Accept: text/event-stream} the
 * turn's journal events stream as they are committed ({@code id:} = seq, read back with
 * {@link Session#awaitEvents} so what the client sees is what the journal holds), the model's text
 * as {@code delta} events without an {@code id:} (they are not journalled) as it is produced, then
 * one {@code result} event; otherwise the turn's result is the JSON answer. A client that goes away
 * does not stop the turn. The commands that continue a suspended turn (approve, deny, answer) answer
 * the same way, through {@link #answer}.
 */
final class TurnRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(TurnRoutes.class);
    private static final Set<String> FIELDS = Set.of("text", "strategy");
    private static final Duration POLL = Duration.ofSeconds(1);

    private final Api api;

    TurnRoutes(Api api) {
        this.api = api;
    }

    void register(RoutesConfig r) {
        r.post("/v1/sessions/{id}/messages", this::message);
    }

    private void message(Context ctx) throws IOException {
        Session s = api.session(ctx);
        JsonBody body = api.body(ctx, FIELDS);
        String text = body.requiredString("text", api.limits().maxTextChars());
        if (text.isBlank()) {
            throw ApiException.invalid("text", "must not be blank");
        }
        String strategy = body.string("strategy", 20);
        CommandOptions options = api.options(ctx);
        if (strategy != null) {
            try {
                options = options.toBuilder().doubleTexting(DoubleTexting.fromWire(strategy)).build();
            } catch (InvalidInputException e) {
                throw ApiException.invalid("strategy", "must be one of enqueue, reject, interrupt, rollback, steer");
            }
        }
        String tenant = api.tenant(ctx).id();
        if (api.config.logContent()) { // opt-in (ServerConfig.logContent): by default no log line holds what users wrote
            LOG.info("session {} of tenant {}: message {}", s.id(), tenant, text);
        }
        answer(ctx, s, options, o -> api.turnLimit.follow(tenant, s, o, () -> s.with(o).async().submit(text)));
    }

    /**
     * Runs {@code command} (a submit, approve, deny or answer, given its options) and answers with its
     * result as JSON, or, when the client accepts {@code text/event-stream}, with its events and text
     * deltas as they come, then the result.
     */
    void answer(Context ctx, Session s, CommandOptions options, Function<CommandOptions, CompletableFuture<TurnResult>> command)
            throws IOException {
        // Each turn is followed by its command id (its stream shows its events; the events-per-turn limit counts them).
        CommandOptions cmd = Api.withCommandId(options);
        if (!wantsStream(ctx)) {
            Api.send(ctx, 200, Json.tree(join(command.apply(cmd))));
            return;
        }
        try (SseStreams.Slot slot = api.streams.reserve(api.tenant(ctx).id())) {
            new TurnStream(ctx, s, cmd.commandId().orElseThrow(), s.state().seq()).run(cmd, command);
        }
    }

    static boolean wantsStream(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains("text/event-stream");
    }

    /** What the stream sends next: a delta, a journal event of the command, its result, or its failure. */
    private sealed interface Item {
        record Delta(TurnListener.TextDelta delta) implements Item {}

        record ToolDelta(TurnListener.ToolInputDelta delta) implements Item {}

        record Journal(StoredEvent event) implements Item {}

        record Done(TurnResult result) implements Item {}

        record Failed(RuntimeException error) implements Item {}
    }

    /**
     * One turn's SSE answer. The turn's thread hands deltas to a queue; a reader thread follows the
     * journal and hands the command's events to the same queue, so a delta (produced before its message
     * is committed) always precedes that message; this request's thread writes the queue out.
     */
    private final class TurnStream {
        private final Context ctx;
        private final Session s;
        private final String commandId;
        private final long before;
        private final BlockingQueue<Item> queue = new LinkedBlockingQueue<>();
        private volatile boolean gone;
        /** Guards {@link #cursor} and the hand-over of journal events, shared by the reader and the turn's thread. */
        private final Object order = new Object();
        private long cursor;
        private volatile boolean ended;
        private int caughtUpFor; // the turn's thread only

        TurnStream(Context ctx, Session s, String commandId, long before) {
            this.ctx = ctx;
            this.s = s;
            this.commandId = commandId;
            this.before = before;
            this.cursor = before;
        }

        void run(CommandOptions cmd, Function<CommandOptions, CompletableFuture<TurnResult>> command) throws IOException {
            CompletableFuture<TurnResult> turn = command.apply(cmd.toBuilder().listener(new TurnListener() {
                @Override
                public void onTextDelta(TextDelta d) {
                    if (!gone) {
                        catchUp(d.modelCall());
                        queue.add(new Item.Delta(d));
                    }
                }

                @Override
                public void onToolInputDelta(ToolInputDelta d) {
                    if (!gone) {
                        catchUp(d.modelCall());
                        queue.add(new Item.ToolDelta(d));
                    }
                }
            }).build());
            Thread reader = Thread.ofVirtual().name("threadline-turn-stream-" + s.id()).start(() -> follow(turn));
            SseStreams.Stream out = null;
            try {
                while (true) {
                    Item item = queue.take();
                    if (item instanceof Item.Failed f && out == null) {
                        throw f.error(); // nothing sent yet: a plain problem+json answer with its status
                    }
                    if (out == null) {
                        out = api.streams.open(ctx, false);
                    }
                    switch (item) {
                        case Item.Delta d -> out.event(null, "delta",
                                Json.write(Json.object().put("modelCall", d.delta().modelCall()).put("text", d.delta().text())));
                        case Item.ToolDelta d -> out.event(null, "tool_input_delta", Json.write(Json.object()
                                .put("modelCall", d.delta().modelCall()).put("toolUseId", d.delta().toolUseId())
                                .put("name", d.delta().toolName()).put("json", d.delta().partialJson())));
                        case Item.Journal j -> out.event(j.event().seq(), j.event().event().type(), Json.write(Views.event(j.event())));
                        case Item.Done d -> {
                            out.event(null, "result", Json.write(d.result()));
                            return;
                        }
                        case Item.Failed f -> {
                            var problem = Problems.of(f.error());
                            api.metrics.problem(problem);
                            out.event(null, "error", Json.write(problem));
                            return;
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.debug("turn stream ended by shutdown; the turn goes on (session={})", s.id());
            } catch (IOException e) {
                LOG.debug("turn stream client went away; the turn goes on (session={})", s.id());
            } finally {
                gone = true;
                reader.interrupt();
                if (out != null) {
                    out.close();
                }
            }
        }

        /**
         * Before the first delta of each model call (on the turn's thread): hands over the command's
         * events committed so far, so that the stream keeps the order things happened in (the user's
         * message, tool results, then the reply's deltas) whichever thread reads the journal first.
         */
        private void catchUp(int modelCall) {
            if (modelCall == caughtUpFor) {
                return; // a model call commits nothing while it streams
            }
            caughtUpFor = modelCall;
            synchronized (order) {
                List<StoredEvent> batch;
                do {
                    batch = s.history().events(cursor, 1_000);
                    drain(batch);
                } while (batch.size() == 1_000);
            }
        }

        /** Hands the command's events after the cursor to the queue, in seq order (each once). */
        private void drain(List<StoredEvent> events) {
            synchronized (order) {
                for (StoredEvent e : events) {
                    if (e.seq() <= cursor) {
                        continue; // handed over already (by the other thread)
                    }
                    cursor = e.seq();
                    if (commandId.equals(e.commandId())) {
                        queue.add(new Item.Journal(e));
                        ended |= e.event() instanceof Event.TurnCompleted || e.event() instanceof Event.TurnInterrupted
                                || e.event() instanceof Event.TurnSuspended;
                    }
                }
            }
        }

        private long cursor() {
            synchronized (order) {
                return cursor;
            }
        }

        /** Follows the journal from before the command until its turn has ended and every event of it was read. */
        private void follow(CompletableFuture<TurnResult> turn) {
            try {
                while (!gone) {
                    if (ended || turn.isDone()) {
                        TurnResult result;
                        try {
                            result = join(turn);
                        } catch (RuntimeException e) {
                            queue.add(new Item.Failed(e));
                            return;
                        }
                        if (cursor() >= result.seq()) {
                            queue.add(new Item.Done(result));
                            return;
                        }
                    }
                    drain(s.history().awaitEvents(cursor(), POLL));
                }
            } catch (RuntimeException e) {
                if (!gone) {
                    queue.add(new Item.Failed(e));
                }
            }
        }
    }

    /** The turn's result; its failure rethrown as the core raised it. */
    static TurnResult join(CompletableFuture<TurnResult> turn) {
        try {
            return turn.get();
        } catch (ExecutionException | CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "shutting-down", null, "the server is shutting down; the turn goes on in the journal");
        }
    }
}
