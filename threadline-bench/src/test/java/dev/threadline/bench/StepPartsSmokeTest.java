package dev.threadline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.PgServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code threadline bench step-parts} end to end with tiny sizes on the benchmark's own PostgreSQL: it
 * prints every part with a positive wall and CPU time, and bad arguments get one line and exit 2.
 * Times are not compared (at these sizes they mean nothing).
 */
class StepPartsSmokeTest {
    private static String run(int expected, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = StepParts.main(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).as("exit status; stderr: %s", err).isEqualTo(expected);
        return expected == 0 ? out.toString(StandardCharsets.UTF_8) : err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyPartOfAStepIsTimedBesideTheRawFloor() throws Exception {
        SharedAndFrameworksSmokeTest.needs(PgServer::binaries);
        String out = run(0, "--store", "postgresql", "--messages", "30", "--rounds", "20");
        List<String> rows = out.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| part") && !l.startsWith("| ---")).toList();
        assertThat(rows).extracting(r -> r.split("\\|")[1].trim()).containsExactly("step through the runtime",
                "of which inside the store's append", "of which the runtime's own", "append straight to the store", "raw floor write");
        for (String r : rows) {
            String[] cells = r.split("\\|");
            assertThat(Double.parseDouble(cells[2].trim())).as("wall µs of %s", cells[1].trim()).isPositive();
            assertThat(Double.parseDouble(cells[3].trim())).as("CPU µs of %s", cells[1].trim()).isPositive();
        }
        assertThat(out).contains("sessions of 30 messages, 20 rounds");
        assertThat(out).contains("warm-up: 20 rounds, its bound"); // a smoke run warms up as many rounds as it times
    }

    @Test
    void badArgumentsSayWhatWasWrong() throws Exception {
        assertThat(run(2, "--rounds", "0")).isEqualTo("threadline bench step-parts: --rounds must be a whole number of at least 1,"
                + " was '0'" + System.lineSeparator());
        assertThat(run(2, "--store", "sqlite:/tmp/x.db")).contains("--store 'sqlite:/tmp/x.db' is not a shared store");
        assertThat(run(2, "--frobnicate")).contains("unknown option '--frobnicate'");
    }
}
