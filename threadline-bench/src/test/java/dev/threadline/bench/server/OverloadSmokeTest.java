package dev.threadline.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline bench overload} end to end at a tiny size: two real child JVMs ({@link ServeNode},
 * as the module's build has no launcher) on one real SQLite file, a few seconds of open-loop load, one
 * node SIGKILLed half-way. Asserts correctness only: the node died, every acknowledged turn is in the
 * journal once and no turn twice, the three phases are there and the survivor answered turns meant to
 * start after the kill. No time is compared.
 */
class OverloadSmokeTest {
    @TempDir
    Path dir;

    private record Run(int status, String out, String err) {}

    private static Run overload(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Overload.main(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aNodeKilledUnderLoadLosesNoAcknowledgedTurn() throws Exception {
        Run r = overload("--smoke", "--node-jvm", "--out", dir.toString());
        assertThat(r.status()).as("exit status; stderr: %s", r.err()).isZero();
        JsonNode res = Json.mapper().readTree(dir.resolve("results.json").toFile());
        assertThat(res.path("nodeDied").asBoolean()).as("node b died of the SIGKILL").isTrue();
        assertThat(res.path("survivorStayedUp").asBoolean()).isTrue();
        JsonNode loss = res.path("loss");
        assertThat(loss.path("acknowledged").asLong()).isPositive();
        assertThat(loss.path("missing").asLong()).as("acknowledged turns missing from the journal").isZero();
        assertThat(loss.path("doubled").asLong()).as("turns in the journal twice").isZero();
        List<String> names = new ArrayList<>();
        long turns = 0;
        for (JsonNode p : res.path("phases")) {
            names.add(p.path("name").asText());
            turns += p.path("turns").asLong();
        }
        assertThat(names).containsExactly("before", "during", "after");
        assertThat(turns).as("every turn in one phase").isEqualTo(res.path("turns").asLong());
        assertThat(res.path("phases").get(0).path("ok").asLong()).as("turns answered before the kill").isPositive();
        assertThat(res.path("phases").get(1).path("ok").asLong() + res.path("phases").get(2).path("ok").asLong())
                .as("turns the survivor answered after the kill").isPositive();
        assertThat(res.path("killAtTurn").asLong()).isEqualTo(res.path("turns").asLong() / 2);
        assertThat(r.out()).contains("| before |", "| during |", "| after |", "zero acknowledged loss");
    }

    @Test
    void aBadOptionIsOneLineNamingIt() throws Exception {
        Run r = overload("--load", "-1");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("threadline bench overload: --load must be a positive number, was '-1'");
        Run s = overload("--store", "memory:");
        assertThat(s.status()).isEqualTo(2);
        assertThat(s.err()).contains("--store must be a shared store").doesNotContain("\n\n");
    }
}
