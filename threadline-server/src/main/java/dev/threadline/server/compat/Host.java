package dev.threadline.server.compat;

import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.runtime.TurnResult;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What the server lends its compatible surfaces (the LangGraph and OpenAI wire formats): the tenant of
 * an API key, the request limits, turns sent under the server's per-turn policy, and SSE responses
 * counted like the server's own. The surfaces use nothing else of the server, and only the core's
 * public API besides. Implementations are thread-safe.
 */
public interface Host {

    /** The tenant view of an API key's secret, or empty when the key is unknown or revoked. */
    Optional<Tenant> tenantOfKey(String secret);

    /** Whether the server is shutting down (new requests are then refused with 503). */
    boolean closing();

    /** The longest message text a request may carry. */
    int maxTextChars();

    /** The most metadata pairs a request may carry. */
    int maxMetadataPairs();

    /** The longest metadata key or value, or other short string, a request may carry. */
    int maxValueChars();

    /** The config of a session created without one (the LangGraph assistant {@code default}, every OpenAI conversation). */
    SessionConfig sessionDefaults();

    /**
     * Queues a turn on {@code session} of {@code tenant} and follows it until it ends, so that the
     * server's per-turn limit applies and its outcome is metered (a graceful shutdown lets it finish or
     * interrupts it, as every command the runtime runs). {@code options} must carry a command id.
     */
    CompletableFuture<TurnResult> startTurn(String tenant, Session session, String text, CommandOptions options);

    /**
     * Sends {@code command}, which continues a suspended turn (approvals, denials, answers) through
     * {@link Session#async()}, so that it runs on the runtime's threads, and follows it like a turn.
     * {@code options} must carry a command id.
     */
    CompletableFuture<TurnResult> runCommand(String tenant, Session session, CommandOptions options,
                                             Supplier<CompletableFuture<TurnResult>> command);

    /**
     * Starts a server-sent-event response on {@code ctx}, served by the calling thread until closed.
     *
     * @throws IOException when the client is gone
     */
    Sse openSse(Context ctx) throws IOException;

    /** One SSE response; used by the one thread that serves it. */
    interface Sse extends AutoCloseable {
        /**
         * Sends one event: {@code id:} (a journal seq, when not null), {@code event:} and one {@code data:} line of JSON.
         *
         * @throws IOException when the client is gone
         */
        void event(Long id, String name, String json) throws IOException;

        /** Ends the response (idempotent). */
        @Override
        void close();
    }
}
