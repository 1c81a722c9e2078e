package dev.threadline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline bench adapters --smoke} end to end with tiny sizes: a row per contender with a positive
 * median at each length, and the machine's load. Times are not compared (at these sizes they mean nothing).
 */
class AdaptersBenchSmokeTest {

    @Test
    void everyAdapterIsTimedBesideThreadlinesOwnStep(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = BenchMain.run(new String[] {"adapters", "--smoke", "--dir", dir.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).as("stderr: %s", err).isZero();
        String report = out.toString(StandardCharsets.UTF_8);
        List<String> rows = report.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| contender") && !l.startsWith("| ---")).toList();
        assertThat(rows).extracting(r -> r.split("\\|")[1].trim()).containsExactly("Threadline Session.update (sqlite)",
                "LangChain4j MessageWindowChatMemory on ThreadlineChatMemoryStore (sqlite)", "LangChain4j ThreadlineChatMemory (sqlite)",
                "Spring AI MessageWindowChatMemory on ThreadlineChatMemoryRepository (sqlite)");
        for (String r : rows) {
            String[] cells = r.split("\\|");
            assertThat(Double.parseDouble(cells[2].trim().split(" ")[0])).as("median at 8 messages of %s", cells[1].trim()).isPositive();
            assertThat(Double.parseDouble(cells[5].trim().split(" ")[0])).as("median at 40 messages of %s", cells[1].trim()).isPositive();
        }
        assertThat(report).contains("| 8 messages | × own | × first |").contains("load average");
    }
}
