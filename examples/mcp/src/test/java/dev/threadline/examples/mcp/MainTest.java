package dev.threadline.examples.mcp;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the example against the real npm filesystem server (installed by scripts/ci-mcp.sh) and checks what it prints. */
class MainTest {
    @Test
    void aTurnCallsTheFilesystemServersToolAndAnswersWithTheFile(@TempDir Path dir) throws Exception {
        Path script = Path.of(System.getProperty("mcp.node.dir", "../../threadline-mcp/src/test/node"))
                .resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js").toAbsolutePath().normalize();
        if (!Files.isRegularFile(script)) {
            fail("the MCP reference server server-filesystem is not installed at " + script
                    + ": run scripts/ci-mcp.sh (npm ci --prefix threadline-mcp/src/test/node)");
        }
        String out = run(new String[] {dir.toString(), "node", script.toString()});

        expect(out, "among them [fs_list_directory, fs_read_text_file]");
        expect(out, "reply: The file says: buy milk");
        expect(out, "journalled tool calls: [fs_read_text_file]");
    }

    private static String run(String[] args) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            Main.main(args);
        } finally {
            System.setOut(stdout);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        return out;
    }

    private static void expect(String out, String line) {
        assertTrue(out.contains(line), () -> "expected \"" + line + "\" in the example's output:\n" + out);
    }
}
