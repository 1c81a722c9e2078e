package dev.threadline.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadline.core.session.SessionConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The grouped builder sets what each group names, keeps the rest, and checks the whole config. */
class ServerConfigBuilderTest {

    @Test
    void each_group_sets_its_settings_and_leaves_the_defaults_of_the_others() {
        ServerConfig c = ServerConfig.builder("memory:")
                .http(h -> h.host("0.0.0.0").port(9090).heartbeat(Duration.ofSeconds(5)).shutdownGrace(Duration.ofSeconds(3)))
                .sessions(s -> s.defaults(SessionConfig.DEFAULT.withModel("scripted")).workspace(Path.of("/srv/files")))
                .leases(l -> l.waitFor(Duration.ofSeconds(7)).linger(Duration.ofMillis(50)))
                .observability(o -> o.metricsToken("t0ken").telemetry(Map.of("OTEL_SERVICE_NAME", "eu-1")))
                .build();
        ServerConfig defaults = ServerConfig.ofStore("memory:");
        assertEquals("0.0.0.0", c.host());
        assertEquals(9090, c.port());
        assertEquals(Duration.ofSeconds(5), c.heartbeat());
        assertEquals(Duration.ofSeconds(3), c.shutdownGrace());
        assertEquals("scripted", c.sessionDefaults().model());
        assertEquals(Path.of("/srv/files"), c.workspace());
        assertEquals(Duration.ofSeconds(7), c.leaseWait());
        assertEquals(Duration.ofMillis(50), c.leaseLinger());
        assertEquals("t0ken", c.metricsToken());
        assertEquals(Map.of("OTEL_SERVICE_NAME", "eu-1"), c.telemetry());
        assertEquals(defaults.limits(), c.limits());
        assertEquals(defaults.retention(), c.retention());
        assertEquals(defaults.logContent(), c.logContent());
        assertNull(c.models());
    }

    @Test
    void to_builder_changes_one_setting_and_keeps_every_other() {
        ServerConfig base = ServerConfig.ofStore("memory:").withPort(0).withLogContent(true).withLeaseLinger(Duration.ofMillis(20));
        ServerConfig changed = base.toBuilder().http(h -> h.host("::1")).build();
        assertEquals(base.withHost("::1"), changed);
        assertEquals(base, base.toBuilder().build());
    }

    @Test
    void build_refuses_what_the_config_refuses() {
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.builder("memory:").http(h -> h.port(70_000)).build());
        assertTrue(port.getMessage().contains("port"), port.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder("memory:").observability(o -> o.metricsToken("a b")).build());
        NullPointerException host = assertThrows(NullPointerException.class, () -> ServerConfig.builder("memory:").http(h -> h.host(null)).build());
        assertEquals("host", host.getMessage());
    }
}
