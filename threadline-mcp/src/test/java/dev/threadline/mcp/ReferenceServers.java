package dev.threadline.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;

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

    /** {@code server-everything} over streamable HTTP on a free loopback port, as a process; closing stops it. */
    record HttpEverything(Process process, String url) implements AutoCloseable {
        static HttpEverything start() throws IOException {
            int port;
            try (ServerSocket free = new ServerSocket(0)) {
                port = free.getLocalPort();
            }
            ProcessBuilder pb = new ProcessBuilder("node", script("server-everything"), "streamableHttp");
            pb.environment().put("PORT", Integer.toString(port));
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            Process server = pb.start();
            try {
                BufferedReader err = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = err.readLine()) != null && !line.contains("listening on port")) {
                    // wait for the server to say it listens
                }
                assertThat(line).as("the server's announcement").isNotNull();
                Thread.ofVirtual().start(() -> err.lines().forEach(l -> { })); // keep draining its stderr
            } catch (IOException | AssertionError e) {
                server.destroyForcibly();
                throw e;
            }
            return new HttpEverything(server, "http://127.0.0.1:" + port + "/mcp");
        }

        @Override
        public void close() throws InterruptedException, ExecutionException {
            process.destroy();
            process.onExit().get();
        }
    }
}
