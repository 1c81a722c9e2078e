package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code /metrics} publishes (issue 26, items 12 and 16): numbers, not NaN, and tags from a bounded
 * set the operator controls, never a name a tenant made up.
 */
class PublicMetricsTest {
    @TempDir
    Path dir;
    TestServer server;

    @BeforeEach
    void start() {
        server = new TestServer(ServerConfig.of(dir.resolve("metrics.db")).withPort(0).withModels(anyOpenAiName()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String scrape() {
        Http.Response r = server.http.as(null).get("/metrics");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    /** Resolves {@code openai:<anything>} to a model of that name, as the environment's resolver does with a key set. */
    private static ModelResolver anyOpenAiName() {
        ChatModel demo = ScriptedModel.demo();
        return spec -> Optional.ofNullable(spec.startsWith("openai:") ? new ChatModel() {
            @Override
            public String name() {
                return spec;
            }

            @Override
            public ChatResponse complete(ChatRequest request) {
                return demo.complete(request);
            }
        } : spec.equals("scripted") ? demo : null);
    }

    /** Each series of a scrape: the line up to its value, e.g. {@code threadline_turns_total{outcome="completed"}}. */
    private static Set<String> series(String scrape) {
        return scrape.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.substring(0, l.lastIndexOf(' ')))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private void createAndRun(Http tenant, String prefix) {
        for (int i = 0; i < 50; i++) {
            String id = prefix + i;
            String model = "openai:" + prefix + "-made-up-model-" + i;
            assertThat(tenant.post("/v1/sessions", "{\"id\":\"" + id + "\",\"config\":{\"model\":\"" + model + "\"}}").status())
                    .isEqualTo(201);
            if (i % 10 == 0) {
                assertThat(tenant.post("/v1/sessions/" + id + "/messages", "{\"text\":\"what is 2+2\"}").status()).isEqualTo(200);
            }
        }
    }

    @Test
    void modelNamesATenantMakesUpNeverBecomeMetricTags() {
        Http tenant = server.tenant("acme");
        scrape(); // the scrape's own request is metered too: its series exists before the two compared
        createAndRun(tenant, "tenant-secret-a");
        String first = scrape();
        assertThat(first).doesNotContain("tenant-secret").doesNotContain("made-up-model")
                .contains("threadline_model_latency_seconds_count{model=\"openai\"}");
        createAndRun(tenant, "tenant-secret-b");
        String second = scrape();
        assertThat(second).doesNotContain("tenant-secret").doesNotContain("made-up-model");
        assertThat(series(second)).as("50 more sessions with 50 more model names add no series").isEqualTo(series(first));
        assertThat(second.lines().filter(l -> l.contains("model=\"")).map(l -> l.replaceAll(".*model=\"([^\"]*)\".*", "$1"))
                .distinct()).containsExactly("openai");
    }

    @Test
    void modelTagsAreTheProviderAndStopGrowingAtTheirBound() {
        ServerMetrics metrics = new ServerMetrics(List.of("calculate"));
        assertThat(metrics.modelTag("openai:gpt-4o")).isEqualTo("openai");
        assertThat(metrics.modelTag("anthropic:claude-x")).isEqualTo("anthropic");
        assertThat(metrics.modelTag("scripted")).isEqualTo("scripted");
        for (int i = 0; i < 100; i++) {
            metrics.modelTag("provider" + i + ":m");
        }
        assertThat(metrics.modelTag("provider99:m")).isEqualTo(ServerMetrics.OTHER);
        assertThat(metrics.modelTag("openai:another")).as("a value already kept stays").isEqualTo("openai");
    }

    @Test
    void metricsWithAConfiguredTokenAnswer401WithoutItAndStayOpenByDefault() {
        assertThat(server.http.as(null).get("/metrics").status()).as("no token configured: open").isEqualTo(200);
        try (TestServer guarded = new TestServer(ServerConfig.of(dir.resolve("guarded.db")).withPort(0)
                .withMetricsToken("prometheus-0123456789"))) {
            for (String key : new String[] {null, guarded.http.key, "prometheus-wrong", "prometheus-0123456789x"}) {
                Http.Response r = guarded.http.as(key).get("/metrics");
                assertThat(r.status()).as("key " + key + ": " + r.body()).isEqualTo(401);
                assertThat(r.contentType()).startsWith("application/problem+json");
                assertThat(r.headers().firstValue("WWW-Authenticate")).isPresent();
                assertThat(r.body()).doesNotContain("threadline_");
            }
            Http.Response ok = guarded.http.as("prometheus-0123456789").get("/metrics");
            assertThat(ok.status()).isEqualTo(200);
            assertThat(ok.body()).contains("threadline_commands_queued");
            assertThat(guarded.http.as(null).get("/health").status()).as("health stays open").isEqualTo(200);
        }
    }

    @Test
    void commandsQueuedIsANumberNotNaNAfterAGarbageCollection() {
        System.gc(); // a gauge over a reference nothing else holds reads NaN once it is collected
        System.gc();
        assertThat(scrape().lines().filter(l -> l.startsWith("threadline_commands_queued ")))
                .containsExactly("threadline_commands_queued 0.0");
    }
}
