package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.process.RetentionAtScale;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.Resp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's retention acceptance on Redis ({@link RetentionAtScale}), two processes running turns
 * meanwhile: 1,000 sessions in {@code ./test}, 300 expiring; the acceptance's 10,000 with
 * {@code -Dthreadline.retention.sessions=10000} (docs/benchmarks.md). Size: the server's
 * {@code used_memory} and its key count. Figures in {@code target/retention-redis.txt}.
 */
class RedisRetentionAtScaleTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;
    private RedisProcess server;

    @BeforeEach
    void start() {
        server = RedisProcess.start(List.of());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void exactlyTheExpiredSessionsGoAndTheRestIsByteIdentical() throws Exception {
        int n = Integer.getInteger("threadline.retention.sessions", 1_000);
        RetentionAtScale.Result r = RetentionAtScale.run(dir, server.url(), n, this::size, Path.of("target", "retention-redis.txt"));
        assertThat(r.removed()).isEqualTo(n * 3 / 10);
    }

    private String size() {
        try {
            String memory = Resp.call(server.port(), "INFO", "memory");
            String used = memory.lines().filter(l -> l.startsWith("used_memory:")).findFirst().orElse("used_memory:?").substring(12).strip();
            return used + " bytes used_memory, " + Resp.call(server.port(), "DBSIZE").replace(":", "") + " keys";
        } catch (IOException e) {
            throw new IllegalStateException("cannot measure the Redis server", e);
        }
    }
}
