package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The curl walkthrough of {@code docs/http-api.md}, run verbatim: its {@code bash} blocks, extracted from
 * the doc, in one bash process against a real {@code threadline serve} (a child JVM on the scripted
 * model, started with a {@code --config} file whose port the {@code --port 0} flag overrides), with
 * {@code $TL} and {@code $KEY} from the environment as the doc says; what they print must be exactly
 * the doc's "What they print" block. The server's own output must not hold the walkthrough's message texts.
 */
class WalkthroughTest {
    private static final Path DOC = Path.of("..", "docs", "http-api.md");

    @TempDir
    Path dir;

    @Test
    void theWalkthroughPrintsWhatTheDocSays() throws Exception {
        for (String tool : List.of("curl", "jq", "bash")) {
            boolean found = new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor() == 0;
            if (!found && "true".equals(System.getenv("CI"))) {
                throw new AssertionError("the walkthrough test needs " + tool + " (apt-get install " + tool + ")");
            }
            assumeTrue(found, "the walkthrough test needs " + tool + " (apt-get install " + tool + "); skipped");
        }
        String doc = Files.readString(DOC);
        String walk = doc.substring(doc.indexOf("## Walkthrough"));
        int next = walk.indexOf("\n## ", 1);
        walk = next < 0 ? walk : walk.substring(0, next + 1); // the walkthrough's section only
        List<String> scripts = blocks(walk, "```bash");
        List<String> printed = blocks(walk, "```text");
        assertThat(scripts).hasSizeGreaterThanOrEqualTo(4);
        assertThat(printed).hasSize(1);

        Path config = dir.resolve("serve.json");
        Files.writeString(config, "{\"store\": \"sqlite:" + dir.resolve("walkthrough.db") + "\", \"port\": 8080}");
        try (ServeProcess server = new ServeProcess("--config", config.toString()) /* ServeProcess adds --port 0 */) {
            assertThat(server.url.getPort()).as("the flag overrides the file").isNotEqualTo(8080);
            assertThat(server.createdKey).isNotNull();
            ProcessBuilder pb = new ProcessBuilder("bash", "--noprofile", "--norc", "-c", String.join("\n", scripts))
                    .directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().put("TL", "http://127.0.0.1:" + server.url.getPort());
            pb.environment().put("KEY", server.createdKey);
            pb.environment().put("LC_ALL", "C"); // sort and uniq as the doc shows them
            Process bash = pb.start();
            String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(bash.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(out).isEqualTo(printed.getFirst());
            assertThat(bash.exitValue()).isZero();
            assertThat(String.join("\n", server.output)).doesNotContain("(2+3)*4").doesNotContain("buy milk");
        }
    }

    /** The bodies of the fenced blocks opened by {@code fence}, in order. */
    private static List<String> blocks(String text, String fence) {
        List<String> out = new ArrayList<>();
        int at = 0;
        while ((at = text.indexOf("\n" + fence + "\n", at)) >= 0) {
            int start = at + fence.length() + 2;
            int end = text.indexOf("\n```\n", start - 1);
            out.add(text.substring(start, end + 1));
            at = end + 4;
        }
        return out;
    }
}
