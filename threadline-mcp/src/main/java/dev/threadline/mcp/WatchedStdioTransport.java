package dev.threadline.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The SDK's stdio transport, with two mends.
 *
 * <ul>
 *   <li>It tells when the server's process exits: the SDK leaves calls to a dead process waiting until
 *       they time out; {@link #exited()} lets them fail at once.
 *   <li>It reports a command that cannot be started (not found, not executable) as that, through
 *       {@link #exited()}: the SDK's client subscribes to {@code connect} without an error handler, so the
 *       failure was dropped (Reactor logs a dropped error with its stack trace) and the call said
 *       "exited" about a process that never ran.
 *   <li>It sends one message at a time. The SDK 1.1.x enqueues with {@code tryEmitNext} on a unicast
 *       sink, which refuses a second thread emitting at the same moment ({@code FAIL_NON_SERIALIZED}),
 *       and the send then fails with "Failed to enqueue message". Two threads do send at once in normal
 *       use: the client refreshes its tool list from the reader thread when a server announces
 *       {@code notifications/tools/list_changed} (the npm "everything" server does, right after it is
 *       initialised) while the caller lists the tools. Upstream fixed it in 2.x (java-sdk issue 875);
 *       Threadline stays on the 1.1 line ADK is built against, so the lock is here.
 * </ul>
 *
 * Thread-safe.
 */
final class WatchedStdioTransport extends StdioClientTransport {
    private final Sinks.Empty<Void> exited = Sinks.empty();
    private final String command;
    /** Held while the SDK enqueues a message; the enqueue is a few CAS steps, never I/O. */
    private final ReentrantLock sending = new ReentrantLock();

    WatchedStdioTransport(ServerParameters params, McpJsonMapper mapper) {
        super(params, mapper);
        this.command = params.getCommand();
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return super.connect(handler)
                .doOnSuccess(v -> Thread.ofVirtual().name("mcp-exit-watch").start(this::watch))
                .onErrorResume(e -> { // handled here: the SDK's subscriber has no error handler
                    exited.tryEmitError(new IllegalStateException("the command '" + command + "' could not start: "
                            + Calls.startFailure(e)));
                    return Mono.empty();
                });
    }

    /** Enqueues {@code message} for the writer thread, one caller at a time (see the class comment). */
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        sending.lock();
        try {
            return super.sendMessage(message);
        } finally {
            sending.unlock();
        }
    }

    private void watch() {
        try {
            awaitForExit();
        } catch (RuntimeException e) {
            // interrupted: treat as gone
        }
        exited.tryEmitEmpty();
    }

    /**
     * Completes when the server's process has exited; fails, saying why, when it could not be started.
     */
    Mono<Void> exited() {
        return exited.asMono();
    }
}
