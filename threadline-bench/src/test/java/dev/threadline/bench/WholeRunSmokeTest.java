package dev.threadline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * Runs the whole-run benchmark with tiny sizes (every contender, both stores' code paths) and checks
 * that it writes a well-formed results.json and five well-formed SVG plots. Times are not asserted:
 * at these sizes they mean nothing.
 */
class WholeRunSmokeTest {
    @TempDir
    Path dir;

    @Test
    void aSmokeRunWritesResultsAndPlots() throws Exception {
        Path out = dir.resolve("out");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        int status = BenchMain.run(new String[] {"--store", "sqlite:" + dir.resolve("b.db"), "--smoke", "--out", out.toString(),
                "--no-progress"}, new PrintStream(stdout, true, StandardCharsets.UTF_8), System.err);

        assertThat(status).isZero();
        JsonNode json = Json.mapper().readTree(Files.readString(out.resolve("results.json")));
        assertThat(json.path("contenders")).hasSize(4);
        assertThat(json.path("curves")).hasSize(4 * 2);
        assertThat(json.path("throughput")).hasSize(2 * 6);
        assertThat(json.path("raw").path("insertsPerSecond").asDouble()).isPositive();
        assertThat(json.path("targets").size()).isGreaterThanOrEqualTo(6);
        JsonNode first = json.path("curves").get(0);
        assertThat(first.path("contender").asText()).isEqualTo("Threadline Session.update (sqlite)");
        assertThat(first.path("walBytesPerStep").asDouble()).isPositive();
        assertThat(first.path("coldLoadMillis").asDouble()).isPositive();
        for (String svg : Plots.FILES) {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.resolve(svg).toFile());
            assertThat(doc.getDocumentElement().getTagName()).as(svg).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("polyline").getLength()).as(svg).isPositive();
        }
        assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("| Threadline Session.update (sqlite) |");
    }

    @Test
    void theMemoryStoreRunsToo() throws Exception {
        Path out = dir.resolve("mem");
        int status = BenchMain.run(new String[] {"--store", "memory:", "--smoke", "--out", out.toString(), "--no-alternatives",
                "--no-progress"}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);

        assertThat(status).isZero();
        JsonNode json = Json.mapper().readTree(Files.readString(out.resolve("results.json")));
        assertThat(json.path("curves").get(0).path("contender").asText()).isEqualTo("Threadline Session.update (memory)");
        assertThat(json.path("curves").get(0).has("walBytesPerStep")).as("no bytes on disk to measure").isFalse();
    }
}
