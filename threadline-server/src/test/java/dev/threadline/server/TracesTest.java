package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.models.openai.OpenAiChatModel;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces end to end: a real OTLP/HTTP receiver on loopback (the protobuf messages of opentelemetry-proto)
 * gets one trace per HTTP turn, under the client's {@code traceparent}, nesting request, turn, model
 * calls, tool call and appends, with the GenAI attributes and no content; the model's HTTP server sees
 * the chat span as its request's {@code traceparent}.
 */
class TracesTest {
    private static final String SECRET = "secret-words-of-the-user";
    private static final String CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String CLIENT_SPAN = "b7ad6b7169203331";

    @TempDir
    Path dir;

    private final OtlpReceiver receiver = new OtlpReceiver();
    private final ModelStub model = new ModelStub();
    private TestServer server;

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
        receiver.close();
        model.close();
    }

    @Test
    void anHttpTurnIsOneTraceUnderTheClientsTraceparentWithTheGenAiAttributesAndNoContent() {
        server = new TestServer(ServerConfig.of(dir.resolve("threadline.db")).withPort(0)
                .withModels(ModelResolver.always(OpenAiChatModel.builder().model("stub-model").baseUrl(model.url()).build()))
                .withTelemetry(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url(), "OTEL_SERVICE_NAME", "threadline-test")));
        assertThat(server.server.tracesOn()).isTrue();
        assertThat(server.http.post("/v1/sessions", "{\"id\":\"traced-1\"}").status()).isEqualTo(201);

        Http.Response turn = server.http.post("/v1/sessions/traced-1/messages", "{\"text\":\"what is 2+3? " + SECRET + "\"}",
                "traceparent", "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01");
        assertThat(turn.status()).isEqualTo(200);
        assertThat(turn.json().path("outcome").asText()).isEqualTo("COMPLETED");

        List<Received> trace = receiver.await(server, spans -> spans.stream().anyMatch(s -> s.parent().equals(CLIENT_SPAN)));
        Received request = one(trace, s -> s.parent().equals(CLIENT_SPAN));
        assertThat(request.name()).isEqualTo("POST /v1/sessions/{id}/messages");
        assertThat(request.kind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
        assertThat(request.attributes()).containsEntry("http.response.status_code", "200");

        Received agent = one(trace, s -> s.name().equals("invoke_agent"));
        assertThat(agent.parent()).isEqualTo(request.id());
        assertThat(agent.attributes()).containsEntry("gen_ai.operation.name", "invoke_agent")
                .containsEntry("gen_ai.conversation.id", "traced-1").containsEntry("threadline.tenant", "default")
                .containsEntry("threadline.outcome", "completed");

        List<Received> chats = trace.stream().filter(s -> s.name().equals("chat stub-model")).toList();
        assertThat(chats).as("chat spans among %s", trace.stream().map(Received::name).toList()).hasSize(2).allSatisfy(c -> {
            assertThat(c.parent()).isEqualTo(agent.id());
            assertThat(c.kind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
            assertThat(c.attributes()).containsEntry("gen_ai.operation.name", "chat").containsEntry("gen_ai.request.model", "stub-model")
                    .containsEntry("gen_ai.usage.input_tokens", "11").containsEntry("gen_ai.usage.output_tokens", "7")
                    .containsEntry("gen_ai.conversation.id", "traced-1").containsKey("gen_ai.provider.name").containsKey("gen_ai.system");
        });
        assertThat(chats).extracting(c -> c.attributes().get("gen_ai.response.finish_reasons"))
                .containsExactlyInAnyOrder("[tool_use]", "[end_turn]");

        Received tool = one(trace, s -> s.name().equals("execute_tool calculate"));
        assertThat(tool.parent()).isEqualTo(agent.id());
        assertThat(tool.attributes()).containsEntry("gen_ai.tool.name", "calculate").containsEntry("gen_ai.operation.name", "execute_tool");

        List<Received> appends = trace.stream().filter(s -> s.name().equals("threadline.journal.append")).toList();
        assertThat(appends).hasSizeGreaterThanOrEqualTo(4) // the message, the reply with its call, the result, the reply
                .extracting(Received::parent).containsOnly(agent.id(), tool.id());

        assertThat(trace).allSatisfy(s -> {
            assertThat(s.trace()).isEqualTo(CLIENT_TRACE);
            assertThat(s.attributes().values()).noneMatch(v -> v.contains(SECRET) || v.contains("2+3"));
        });
        assertThat(receiver.spans()).filteredOn(s -> s.attributes().containsKey("gen_ai.operation.name"))
                .allSatisfy(s -> assertThat(s.trace()).isEqualTo(CLIENT_TRACE)); // the turn's spans are all in the client's trace

        // the model's server saw each chat span as the traceparent of its request
        assertThat(model.traceparents).hasSize(2);
        assertThat(model.traceparents).containsExactlyInAnyOrderElementsOf(
                chats.stream().map(c -> "00-" + CLIENT_TRACE + "-" + c.id() + "-01").toList());
    }

    @Test
    void offUnlessAnExporterOrEndpointIsSet() {
        server = new TestServer(ServerConfig.of(dir.resolve("threadline.db")).withPort(0));
        assertThat(server.server.tracesOn()).isFalse();
        assertThat(ServerTracing.on(Map.of())).isFalse();
        assertThat(ServerTracing.on(Map.of("OTEL_SERVICE_NAME", "x"))).isFalse();
        assertThat(ServerTracing.on(Map.of("OTEL_TRACES_EXPORTER", "none", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://x"))).isFalse();
        assertThat(ServerTracing.on(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://x", "OTEL_SDK_DISABLED", "true"))).isFalse();
        assertThat(ServerTracing.on(Map.of("OTEL_TRACES_EXPORTER", "otlp"))).isTrue();
        assertThat(ServerTracing.on(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://x"))).isTrue();
        assertThat(ServerTracing.on(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://x/v1/traces"))).isTrue();
    }

    private static Received one(List<Received> spans, Predicate<Received> which) {
        List<Received> found = spans.stream().filter(which).toList();
        assertThat(found).as("among %s", spans.stream().map(Received::name).toList()).hasSize(1);
        return found.getFirst();
    }

    /** One received span: ids in hex, attribute values as strings (arrays as {@code [a, b]}). */
    record Received(String trace, String id, String parent, String name, Span.SpanKind kind, Map<String, String> attributes) {
        static Received of(Span s) {
            Map<String, String> attributes = new LinkedHashMap<>();
            for (KeyValue kv : s.getAttributesList()) {
                attributes.put(kv.getKey(), text(kv.getValue()));
            }
            HexFormat hex = HexFormat.of();
            return new Received(hex.formatHex(s.getTraceId().toByteArray()), hex.formatHex(s.getSpanId().toByteArray()),
                    hex.formatHex(s.getParentSpanId().toByteArray()), s.getName(), s.getKind(), attributes);
        }

        private static String text(AnyValue v) {
            return switch (v.getValueCase()) {
                case STRING_VALUE -> v.getStringValue();
                case INT_VALUE -> Long.toString(v.getIntValue());
                case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
                case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
                case ARRAY_VALUE -> v.getArrayValue().getValuesList().stream().map(Received::text).collect(Collectors.joining(", ", "[", "]"));
                default -> v.toString();
            };
        }
    }

    /** An OTLP/HTTP trace receiver on loopback: {@code POST /v1/traces} with a protobuf {@code ExportTraceServiceRequest}. */
    static final class OtlpReceiver implements AutoCloseable {
        private final List<Received> spans = new ArrayList<>();
        private final HttpServer server;

        OtlpReceiver() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/v1/traces", ex -> {
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(ex.getRequestBody().readAllBytes());
                List<Received> batch = new ArrayList<>();
                for (ResourceSpans rs : request.getResourceSpansList()) {
                    for (ScopeSpans ss : rs.getScopeSpansList()) {
                        ss.getSpansList().forEach(s -> batch.add(Received.of(s)));
                    }
                }
                synchronized (this) {
                    spans.addAll(batch);
                    notifyAll();
                }
                ex.getResponseHeaders().add("content-type", "application/x-protobuf");
                ex.sendResponseHeaders(200, -1); // an empty ExportTraceServiceResponse: all accepted
                ex.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        synchronized List<Received> spans() {
            return List.copyOf(spans);
        }

        /**
         * The spans of {@link #CLIENT_TRACE} once {@code done} holds for them: flushes the server's spans and
         * waits for the next batch, for 10 s at most.
         */
        List<Received> await(TestServer server, Predicate<List<Received>> done) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (true) {
                server.server.flushTraces();
                synchronized (this) {
                    List<Received> trace = spans.stream().filter(s -> s.trace().equals(CLIENT_TRACE)).toList();
                    if (done.test(trace)) {
                        return trace;
                    }
                    long left = deadline - System.nanoTime();
                    assertThat(left).as("spans received so far: %s", spans).isPositive();
                    try {
                        wait(Math.min(left / 1_000_000 + 1, 200)); // woken by the next batch
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new AssertionError(e);
                    }
                }
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    /** An OpenAI-compatible chat-completions server: asks for {@code calculate} first, then answers; keeps each traceparent. */
    static final class ModelStub implements AutoCloseable {
        final List<String> traceparents = new CopyOnWriteArrayList<>();
        private final HttpServer server;

        ModelStub() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/v1/chat/completions", ex -> {
                JsonNode request = Json.parse(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), "request");
                traceparents.add(String.valueOf(ex.getRequestHeaders().getFirst("traceparent")));
                boolean answered = false;
                for (JsonNode m : request.path("messages")) {
                    answered |= m.path("role").asText().equals("tool");
                }
                String message = answered ? "{\"role\":\"assistant\",\"content\":\"It is 5.\"}"
                        : "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"calculate\",\"arguments\":\"{\\\"expression\\\":\\\"2+3\\\"}\"}}]}";
                String body = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"stub-model\",\"choices\":[{\"index\":0,\"message\":"
                        + message + ",\"finish_reason\":\"" + (answered ? "stop" : "tool_calls") + "\"}],"
                        + "\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":7,\"total_tokens\":18}}";
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("content-type", "application/json");
                ex.sendResponseHeaders(200, bytes.length);
                ex.getResponseBody().write(bytes);
                ex.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
