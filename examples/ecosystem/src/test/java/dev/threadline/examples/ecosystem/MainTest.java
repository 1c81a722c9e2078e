package dev.threadline.examples.ecosystem;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the one-class-path example against the real npm server-everything and checks what it prints. */
class MainTest {
    @Test
    void everyFrameworkWorksOnOneClassPathAndOneStore(@TempDir Path dir) throws Exception {
        Path script = Path.of(System.getProperty("mcp.node.dir", "../../threadline-mcp/src/test/node"))
                .resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js").toAbsolutePath().normalize();
        if (!Files.isRegularFile(script)) {
            fail("the MCP reference server server-everything is not installed at " + script
                    + ": run scripts/ci-mcp.sh (npm ci --prefix threadline-mcp/src/test/node)");
        }
        String out = run(new String[] {dir.toString(), "node", script.toString()});

        expect(out, "google-adk-1.8.0.jar, mcp-core-1.1.2.jar, json-schema-validator-3.0.6.jar");
        expect(out, "threadline + mcp: MCP says 42");
        expect(out, "adk: ADK heard: hi ADK");
        expect(out, "langchain4j: 2 messages");
        expect(out, "spring ai: 2 messages");
        expect(out, "langgraph4j: [hi LangGraph4j, hello from LangGraph4j]");
        expect(out, "sessions of tenant acme in one store: [adk-session, lc4j-memory, lg4j-thread, mcp-turn, spring-memory]");
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
