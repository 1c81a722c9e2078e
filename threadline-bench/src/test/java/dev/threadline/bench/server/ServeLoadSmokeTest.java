package dev.threadline.bench.server;

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
 * Runs the server load benchmark end to end at tiny rates against a real server on loopback (started
 * in-process: the CLI's launcher is not part of this module's build) and checks that every turn it
 * counted as answered was a completed turn with a tool call, that every idle stream opened, and that
 * it wrote results.json and two well-formed plots. Times are not asserted: at these sizes they mean nothing.
 */
class ServeLoadSmokeTest {
    @TempDir
    Path dir;

    @Test
    void aSmokeRunDrivesTheServerAndTheJavaApiAndWritesResultsAndPlots() throws Exception {
        Path out = dir.resolve("out");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        int status = ServeLoad.main(new String[] {"--smoke", "--in-process-server", "--out", out.toString()},
                new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true));

        assertThat(status).isZero();
        JsonNode json = Json.mapper().readTree(Files.readString(out.resolve("results.json")));
        assertThat(json.path("server").asText()).startsWith("in-process");
        assertThat(json.path("saturation").path("http").path("ok").asLong()).isPositive();
        assertThat(json.path("saturation").path("httpSearch").size()).isBetween(1, 4);
        assertThat(json.path("saturation").path("httpRate").asDouble()).isPositive();
        assertThat(json.path("levels")).hasSize(6);
        for (JsonNode level : json.path("levels")) {
            for (String who : new String[] {"http", "inProcess"}) {
                JsonNode m = level.path(who);
                assertThat(m.path("errors").size()).as(who + " errors at " + level.path("fraction")).isZero();
                assertThat(m.path("ok").asLong()).as(who).isEqualTo(m.path("sent").asLong()).isPositive();
                assertThat(m.path("p99Millis").asDouble()).as(who).isGreaterThanOrEqualTo(m.path("p50Millis").asDouble()).isPositive();
            }
        }
        JsonNode hot = json.path("hot");
        assertThat(hot.path("quietSessions").asInt()).isEqualTo(20);
        for (String who : new String[] {"http", "inProcess"}) {
            for (String run : new String[] {"alone", "beside", "quiet"}) {
                assertThat(hot.path(who).path(run).path("errors").size()).as(who + " " + run).isZero();
                assertThat(hot.path(who).path(run).path("ok").asLong()).as(who + " " + run).isPositive();
            }
        }
        for (String who : new String[] {"http", "inProcess"}) {
            JsonNode s = json.path("streams").path(who);
            assertThat(s.path("opened").asInt()).as(who).isEqualTo(5);
            assertThat(s.path("failed").size()).as(who).isZero();
            assertThat(s.path("heapWithBytes").asLong()).as(who).isPositive();
        }
        for (String svg : LoadReport.FILES) {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.resolve(svg).toFile());
            assertThat(doc.getDocumentElement().getTagName()).as(svg).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("polyline").getLength()).as(svg).isGreaterThanOrEqualTo(4);
        }
        assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("| 100 % |").contains("| HTTP SSE | 5 |");
    }
}
