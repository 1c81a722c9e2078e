package dev.threadline.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The SDK's stdio transport, telling when the server's process exits: the SDK leaves calls to a dead
 * process waiting until they time out; {@link #exited()} lets them fail at once. Thread-safe.
 */
final class WatchedStdioTransport extends StdioClientTransport {
    private final Sinks.Empty<Void> exited = Sinks.empty();

    WatchedStdioTransport(ServerParameters params, McpJsonMapper mapper) {
        super(params, mapper);
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return super.connect(handler)
                .doOnSuccess(v -> Thread.ofVirtual().name("mcp-exit-watch").start(this::watch))
                .doOnError(e -> exited.tryEmitEmpty());
    }

    private void watch() {
        try {
            awaitForExit();
        } catch (RuntimeException e) {
            // interrupted: treat as gone
        }
        exited.tryEmitEmpty();
    }

    /** Completes when the server's process has exited (or could not be started). */
    Mono<Void> exited() {
        return exited.asMono();
    }
}
