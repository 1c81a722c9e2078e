package dev.threadline.server;

import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.server.compat.Host;
import dev.threadline.server.compat.langgraph.LangGraphApi;
import dev.threadline.server.compat.openai.OpenAiApi;
import dev.threadline.server.keys.KeyStore;
import io.javalin.config.JavalinConfig;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Mounts the compatible surfaces ({@code /langgraph}: the LangGraph SDK's threads and runs;
 * {@code /openai/v1}: the OpenAI SDK's conversations) on the server's routes, lending them only what
 * {@link Host} offers. The one hook in {@link ThreadlineServer}'s configuration.
 */
final class CompatMount {
    private CompatMount() {}

    static final String LANGGRAPH = "/langgraph";
    static final String OPENAI = "/openai/v1";

    /** Whether {@code path} is under one of the compatible surfaces. */
    static boolean serves(String path) {
        return path.startsWith(LANGGRAPH + "/") || path.startsWith(OPENAI + "/");
    }

    /**
     * Adds the surfaces' routes. They follow LangGraph's and OpenAI's specifications, not Threadline's
     * OpenAPI document, so they are left out of {@link ThreadlineServer#routes()} (which that document
     * lists); docs/compatibility.md lists them.
     */
    static void register(JavalinConfig cfg, Api api) {
        Host host = new ApiHost(api);
        cfg.events.handlerAdded(h -> {
            if (h.getPath().startsWith(LANGGRAPH + "/") || h.getPath().startsWith(OPENAI + "/")) {
                api.routes.remove(h.getHttpMethod().name() + " " + h.getPath());
            }
        });
        RoutesConfig routes = cfg.routes;
        new LangGraphApi(host).register(routes, LANGGRAPH);
        new OpenAiApi(host).register(routes, OPENAI);
    }

    private record ApiHost(Api api) implements Host {
        @Override
        public Optional<Tenant> tenantOfKey(String secret) {
            return api.keys.tenantOf(secret).filter(t -> !t.equals(KeyStore.ADMIN)).map(api::tenantView); // an admin key acts for no tenant
        }

        @Override
        public boolean closing() {
            return api.closing.get();
        }

        @Override
        public int maxTextChars() {
            return api.limits().maxTextChars();
        }

        @Override
        public int maxMetadataPairs() {
            return api.limits().maxMetadataPairs();
        }

        @Override
        public int maxValueChars() {
            return api.limits().maxValueChars();
        }

        @Override
        public SessionConfig sessionDefaults() {
            return api.config.sessionDefaults(); // what POST /v1/sessions creates without a config
        }

        @Override
        public CompletableFuture<TurnResult> startTurn(String tenant, Session session, String text, CommandOptions options) {
            return api.turnLimit.follow(tenant, session, options, () -> session.with(options).async().submit(text));
        }

        @Override
        public CompletableFuture<TurnResult> runCommand(String tenant, Session session, CommandOptions options,
                                                        Supplier<CompletableFuture<TurnResult>> command) {
            return api.turnLimit.follow(tenant, session, options, command);
        }

        @Override
        public Sse openSse(Context ctx) throws IOException {
            SseStreams.Stream s = api.streams.open(ctx, false);
            return new Sse() {
                @Override
                public void event(Long id, String name, String json) throws IOException {
                    s.event(id, name, json);
                }

                @Override
                public void close() {
                    s.close();
                }
            };
        }
    }
}
