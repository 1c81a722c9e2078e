package dev.threadline.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline bench turn-cost} and {@code threadline bench soak} end to end at tiny sizes against
 * real SQLite files and a real server on loopback (in this JVM: the CLI's launcher is not part of this
 * module's build). Each command checks after its run that every session's journal holds its prefill and
 * every turn it counted (exit 1 otherwise); the test asserts that, and that each row holds the turns asked
 * with positive figures. Times are not compared: at these sizes they mean nothing.
 */
class TurnCostAndSoakSmokeTest {
    @TempDir
    Path dir;

    private record Run(int status, String out, String err) {}

    private static Run turnCost(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TurnCost.main(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<String[]> rows(String out) {
        return out.lines().filter(l -> l.matches("\\| [0-9].*")).map(l -> l.substring(1).split("\\|")).toList();
    }

    private static double cell(String[] row, int i) {
        return Double.parseDouble(row[i].trim().replace(",", ""));
    }

    private void assertTurnCost(Run r, boolean inStoreMeasured) {
        assertThat(r.status()).as("exit status; stderr: %s", r.err()).isZero();
        List<String[]> rows = rows(r.out());
        assertThat(rows).hasSize(2);
        assertThat(rows).extracting(row -> row[0].trim()).containsExactly("12", "200"); // 10 rounded up to whole turns
        assertThat(rows).extracting(row -> row[1].trim()).containsExactly("12", "3"); // size / 40 turns per session at most
        for (String[] row : rows) {
            assertThat(cell(row, 2)).as("turns timed").isEqualTo(12);
            assertThat(cell(row, 3)).as("turn p50").isPositive();
            assertThat(cell(row, 5)).as("p99 >= p50").isGreaterThanOrEqualTo(cell(row, 3));
            assertThat(cell(row, 7)).as("process CPU").isPositive();
            if (inStoreMeasured) {
                assertThat(cell(row, 6)).as("thread CPU").isPositive();
                assertThat(cell(row, 8)).as("in store").isPositive();
                assertThat(cell(row, 9)).as("runtime's own").isPositive().isLessThan(cell(row, 3));
            } else {
                assertThat(List.of(row[6].trim(), row[8].trim(), row[9].trim())).as("thread CPU, in store, own").containsOnly("–");
            }
            assertThat(cell(row, 10)).as("store step").isPositive();
            assertThat(cell(row, 12)).as("messages in the model's view").isPositive();
        }
        assertThat(r.out()).contains("turn p50 at 200 messages / at 12: ")
                .contains("journal at 12 messages: every session holds its prefill and all its turns")
                .contains("journal at 200 messages: every session holds its prefill and all its turns");
    }

    @Test
    void turnCostInProcessTimesEveryTurnAskedAndEveryJournalHoldsThem() throws Exception {
        Run r = turnCost("--smoke", "--store", "sqlite:" + dir.resolve("in.db"));
        assertTurnCost(r, true);
        assertThat(r.out()).contains("### in-process (Session.submit)");
    }

    @Test
    void turnCostOverHttpTimesEveryTurnAskedAndEveryJournalHoldsThem() throws Exception {
        Run r = turnCost("--smoke", "--http");
        assertTurnCost(r, false);
        assertThat(r.out()).contains("### HTTP (threadline serve in this JVM");
    }

    @Test
    void badArgumentsSayWhatWasWrongAndRunNothing() throws Exception {
        Run r = turnCost("--sizes", "10,x");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("threadline bench turn-cost: each of --sizes must be a whole number of at least 1, was 'x'"
                + System.lineSeparator());
        assertThat(turnCost("--http", "--store", "memory:").err()).contains("--http serves a SQLite file");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Soak.main(new String[] {"--clients", "5", "--sessions", "4"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--clients (5) must not exceed --sessions (4)");
    }

    @Test
    void aShortSoakReportsEveryWindowAndEveryAcknowledgedTurnIsInItsJournal() throws Exception {
        Path out = dir.resolve("soak");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int status = Soak.main(new String[] {"--smoke", "--in-process-server", "--minutes", "0.25", "--window-seconds", "5",
                "--out", out.toString()}, new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8));

        assertThat(status).as("exit status; stderr: %s", stderr).isZero();
        JsonNode json = Json.mapper().readTree(Files.readString(out.resolve("results.json")));
        assertThat(json.path("windows")).hasSize(3);
        long turns = 0;
        for (JsonNode w : json.path("windows")) {
            assertThat(w.path("turns").asLong()).isPositive();
            assertThat(w.path("turnsPerSec").asDouble()).isPositive();
            assertThat(w.path("p99Millis").asDouble()).isGreaterThanOrEqualTo(w.path("p50Millis").asDouble()).isPositive();
            assertThat(w.path("cpuMillisPerTurn").asDouble()).isPositive();
            assertThat(w.path("rssBytes").asLong()).isPositive();
            assertThat(w.path("errors").asLong()).isZero();
            turns += w.path("turns").asLong();
        }
        assertThat(json.path("turnsAcknowledged").asLong()).as("the warm-up's and the windows'").isGreaterThanOrEqualTo(turns);
        assertThat(json.path("journalHoldsTurns").asBoolean()).isTrue();
        assertThat(json.path("heapEndBytes").asLong()).isPositive();
        assertThat(json.path("first").path("turns").asLong()).isPositive();
        assertThat(json.path("last").path("turns").asLong()).isPositive();
        String text = stdout.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("| minute | messages per session (about) | turns/s | p50 ms | p99 ms | server CPU ms/turn")
                .contains("every acknowledged turn is in its session's journal");
        assertThat(rows(text)).hasSize(3);
    }
}
