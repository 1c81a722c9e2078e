package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.Line;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisClusterProcesses;
import dev.threadline.harness.servers.RedisProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, acceptance "threadline chat --store": a session written by one {@code threadline chat}
 * process (a child JVM running {@link Main}) on PostgreSQL, on a standalone Redis and on a 3-master
 * Redis Cluster is resumed by another process: its history and its variables are there, and it goes on
 * from where the first one stopped. The servers are throwaway ones on loopback.
 */
class ChatOnSharedStoresTest {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves the chats' stderr
    Path dir;

    @Test
    void aChatOnPostgresqlIsResumedByAnotherProcess() {
        PgServer.shared().createDatabase("cli_chat");
        resumedByAnotherProcess("postgres", PgServer.shared().url("cli_chat"));
    }

    @Test
    void aChatOnRedisIsResumedByAnotherProcess() {
        try (RedisProcess redis = RedisProcess.start(List.of())) {
            resumedByAnotherProcess("redis", redis.url());
        }
    }

    @Test
    void aChatOnARedisClusterIsResumedByAnotherProcess() {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start()) {
            resumedByAnotherProcess("cluster", cluster.url());
        }
    }

    private void resumedByAnotherProcess(String name, String store) {
        String first = chat(name + "-1", store, "what is (2+3)*4", "note buy milk", "/exit");
        assertThat(first).contains("= 20").contains("Noted (1 note): buy milk").doesNotContain("error:");

        String second = chat(name + "-2", store, "/history", "/vars", "what is 1+1", "/exit");
        assertThat(second).contains("resumed").contains("[1] you: what is (2+3)*4").contains("[2] you: note buy milk")
                .contains("meeting_notes = [\"buy milk\"]").contains("= 2").doesNotContain("error:");

        String third = chat(name + "-3", store, "/history", "/exit");
        assertThat(third).as("the second process's turn is there for a third").contains("[3] you: what is 1+1");
    }

    /** Runs {@code threadline chat} on {@code store} in a child JVM with these input lines; its stdout. */
    private String chat(String name, String store, String... input) {
        try (ChildProcess p = ChildProcess.of(Main.class).name(name).jvmOptions("--enable-native-access=ALL-UNNAMED")
                .args("chat", "--model", "scripted", "--store", store, "--session", "s1", "--workspace", dir.toString())
                .stderr(dir.resolve(name + ".err")).start()) {
            for (String line : input) {
                p.send(line);
            }
            int code = p.awaitExit(WAIT);
            String out = p.lines().stream().map(Line::text).collect(Collectors.joining("\n"));
            assertThat(code).as("exit code of %s; stdout:\n%s\nstderr:\n%s", name, out, p.stderrTail()).isZero();
            return out;
        }
    }
}
