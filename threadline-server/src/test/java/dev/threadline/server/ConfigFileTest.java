package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.session.DoubleTexting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code serve --config} file: every setting read, unknown or mistyped fields refused by name. */
class ConfigFileTest {
    @TempDir
    Path dir;

    private ServerConfig read(String json) throws Exception {
        Path f = dir.resolve("serve.json");
        Files.writeString(f, json);
        return ConfigFile.apply(f, ServerConfig.ofStore("sqlite:/tmp/x.db"));
    }

    @Test
    void readsEverySettingOverTheBase() throws Exception {
        ServerConfig c = read("""
                {"store": "memory:", "host": "0.0.0.0", "port": 9090, "shutdownGraceSeconds": 3, "leaseWaitSeconds": 7,
                 "leaseLingerMillis": 20, "logContent": true, "metricsToken": "scrape-me-0123456789",
                 "limits": {"maxTextChars": 500, "maxEventsPerTurn": 40, "maxSessionsPerTenant": 3, "maxSseStreamsPerTenant": 2},
                 "session": {"model": "scripted", "systemPrompt": "be brief", "requireApproval": ["calculate"], "doubleTexting": "reject"},
                 "retention": {"sessionTtlSeconds": 3600, "sweepEverySeconds": 0},
                 "telemetry": {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_EXPORTER_OTLP_HEADERS": "x-key=hush-123"},
                 "prices": {"scripted": {"input": 3, "output": 15}}}""");
        assertThat(c.store()).isEqualTo("memory:");
        assertThat(c.host()).isEqualTo("0.0.0.0");
        assertThat(c.port()).isEqualTo(9090);
        assertThat(c.shutdownGrace()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.leaseWait()).isEqualTo(Duration.ofSeconds(7));
        assertThat(c.leaseLinger()).isEqualTo(Duration.ofMillis(20));
        assertThat(c.logContent()).isTrue();
        assertThat(c.metricsToken()).isEqualTo("scrape-me-0123456789");
        assertThat(c.toString()).as("the token stays out of logs").doesNotContain("scrape-me");
        assertThat(ServerConfig.ofStore("memory:").metricsToken()).as("open by default").isNull();
        assertThat(c.limits().maxTextChars()).isEqualTo(500);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(Limits.DEFAULT.maxBodyBytes());
        assertThat(c.limits().maxEventsPerTurn()).isEqualTo(40);
        assertThat(c.limits().maxSessionsPerTenant()).isEqualTo(3);
        assertThat(c.limits().maxSseStreamsPerTenant()).isEqualTo(2);
        assertThat(c.sessionDefaults().systemPrompt()).isEqualTo("be brief");
        assertThat(c.sessionDefaults().requireApproval()).isEqualTo(List.of("calculate"));
        assertThat(c.sessionDefaults().doubleTexting()).isEqualTo(DoubleTexting.REJECT);
        assertThat(c.retention()).isEqualTo(new RetentionPolicy(Duration.ofHours(1), Duration.ZERO, 1000));
        assertThat(c.telemetry()).containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318");
        assertThat(c.toString()).as("the values (headers may hold keys) stay out of logs").doesNotContain("hush-123");
        assertThat(c.prices().priced("scripted", dev.threadline.core.model.Usage.of(10, 5)).costMicros()).isEqualTo(105);
        assertThat(read("{}")).isEqualTo(ServerConfig.ofStore("sqlite:/tmp/x.db"));
    }

    @Test
    void refusesWhatItDoesNotKnowNamingTheFileAndField() throws Exception {
        assertThatThrownBy(() -> read("{\"prot\": 80}")).isInstanceOf(InvalidInputException.class).hasMessageContaining("prot");
        assertThatThrownBy(() -> read("{\"port\": \"80\"}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("serve.json: port");
        assertThatThrownBy(() -> read("{\"limits\": {\"maxTextChars\": 0}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("limits.maxTextChars");
        assertThatThrownBy(() -> read("{\"session\": {\"doubleTexting\": \"shout\"}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("session.doubleTexting");
        assertThatThrownBy(() -> read("{\"retention\": {\"sessionTtlSeconds\": 0}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("retention.sessionTtlSeconds");
        assertThatThrownBy(() -> read("{\"retention\": {\"sweepLimit\": 5000}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("retention.sweepLimit");
        assertThatThrownBy(() -> read("{\"retention\": {\"keepCheckpoints\": 5, \"keepDays\": 2}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("retention.keepDays");
        assertThatThrownBy(() -> read("{\"retention\": {\"keepCheckpoints\": 0}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("retention.keepCheckpoints");
        assertThat(read("{\"retention\": {\"keepDays\": 30, \"pruneEverySeconds\": 600}}").retention())
                .isEqualTo(RetentionPolicy.DEFAULT.withHistoryKeep(dev.threadline.core.runtime.PrunePolicy.keepDays(30), Duration.ofMinutes(10)));
        assertThatThrownBy(() -> read("{\"telemetry\": {\"JAVA_HOME\": \"/x\"}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("telemetry.JAVA_HOME");
        assertThatThrownBy(() -> read("{\"prices\": {\"m\": {\"input\": 1}}}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("serve.json: prices.m.output");
        assertThatThrownBy(() -> read("not json")).isInstanceOf(InvalidInputException.class).hasMessageContaining("serve.json");
        assertThatThrownBy(() -> ConfigFile.apply(dir.resolve("missing.json"), ServerConfig.ofStore("memory:")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("missing.json");
    }
}
