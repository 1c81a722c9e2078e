package dev.threadline.mcp;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the npm reference servers are installed for the tests (by {@code npm ci}, see the message). */
final class ReferenceServers {
    static final Path NODE_DIR = Path.of("src/test/node").toAbsolutePath();

    private ReferenceServers() {}

    /** The entry script of {@code @modelcontextprotocol/<name>}; fails the test, saying how to install, when missing. */
    static String script(String name) {
        Path script = NODE_DIR.resolve("node_modules/@modelcontextprotocol").resolve(name).resolve("dist/index.js");
        if (!Files.isRegularFile(script)) {
            fail("the MCP reference server " + name + " is not installed at " + script
                    + ": run `npm ci --prefix threadline-mcp/src/test/node` (or scripts/ci-mcp.sh)");
        }
        return script.toString();
    }
}
