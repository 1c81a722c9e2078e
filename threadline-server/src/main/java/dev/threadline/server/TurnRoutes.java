package dev.threadline.server;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import dev.threadline.server.http.Problems;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/sessions/{id}/messages}: runs a turn. With {@code Accept: text/event-stream} the
 * turn's journal events stream as they are committed ({@code id:} = seq, read back with
 * {@link Session#awaitEvents} so what the client sees is what the journal holds), then one
 * {@code result} event; otherwise the turn's result is the JSON answer. A client that goes away does
 * not stop the turn. (Token deltas and the double-texting {@code strategy} field come with the core's
 * human-in-the-loop work.)
 */
final class TurnRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(TurnRoutes.class);
    private static final Set<String> FIELDS = Set.of("text");
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
        String text = api.body(ctx, FIELDS).requiredString("text", api.limits().maxTextChars());
        if (text.isBlank()) {
            throw ApiException.invalid("text", "must not be blank");
        }
        CommandOptions options = api.options(ctx);
        if (!wantsStream(ctx)) {
            Api.send(ctx, 200, Json.tree(join(api.turns.start(s, text, options))));
            return;
        }
        // The stream shows this command's events only, so it needs the command's id even without a key.
        CommandOptions cmd = options.commandId() != null ? options : CommandOptions.id("http-" + UUID.randomUUID());
        long before = s.state().seq();
        stream(ctx, s, cmd.commandId(), before, api.turns.start(s, text, cmd));
    }

    static boolean wantsStream(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains("text/event-stream");
    }

    private void stream(Context ctx, Session s, String commandId, long cursor, CompletableFuture<TurnResult> turn)
            throws IOException {
        SseStreams.Stream out = null;
        try {
            boolean ended = false;
            while (true) {
                if (ended || turn.isDone()) {
                    TurnResult result;
                    try {
                        result = join(turn);
                    } catch (RuntimeException e) {
                        if (out == null) {
                            throw e; // nothing sent yet: a plain problem+json answer with its status
                        }
                        out.event(null, "error", Json.write(Problems.of(e)));
                        return;
                    }
                    if (cursor >= result.seq()) {
                        if (out == null) {
                            out = api.streams.open(ctx, false);
                        }
                        out.event(null, "result", Json.write(result));
                        return;
                    }
                }
                for (StoredEvent e : s.awaitEvents(cursor, POLL)) {
                    cursor = e.seq();
                    if (commandId.equals(e.commandId())) {
                        if (out == null) {
                            out = api.streams.open(ctx, false);
                        }
                        out.event(e.seq(), e.event().type(), Json.write(Views.event(e)));
                        ended |= e.event() instanceof Event.TurnCompleted || e.event() instanceof Event.TurnInterrupted;
                    }
                }
            }
        } catch (IOException gone) {
            LOG.debug("turn stream client went away; the turn goes on (session={})", s.id());
        } finally {
            if (out != null) {
                out.close();
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
