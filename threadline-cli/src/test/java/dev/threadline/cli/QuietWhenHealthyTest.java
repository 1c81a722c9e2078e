package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, item 4: a plain run's stderr holds the one-line error and nothing else, and nothing at all
 * when all is well. The children log at slf4j-simple's own default level (INFO), as the shipped jar
 * does: the test class path's simplelogger.properties would otherwise hide every line below ERROR.
 */
class QuietWhenHealthyTest {
    /** The shipped jar's logging: slf4j-simple's default level, which the test resources lower to error. */
    private static final String SHIPPED_LOG_LEVEL = "-Dorg.slf4j.simpleLogger.defaultLogLevel=info";

    @TempDir
    Path dir;

    private static List<String> lines(String text) {
        return text.lines().filter(l -> !l.isBlank()).toList();
    }

    @Test
    void anUnreachablePostgresqlPrintsOnlyTheOneLineErrorWithoutHikariInfoLines() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            closed = s.getLocalPort(); // nothing listens there once it is closed
        }
        CliTest.Run r = new CliChild(dir, SHIPPED_LOG_LEVEL).run(new String[] {"/exit"},
                "chat", "--model", "scripted", "--store", "postgresql://127.0.0.1:" + closed + "/x");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(lines(r.err())).as(r.err()).hasSize(1);
        assertThat(r.err()).startsWith("threadline: store unavailable: postgresql://127.0.0.1:" + closed + "/x")
                .doesNotContain("HikariDataSource");
    }

    @Test
    void anMcpCommandThatDoesNotExistIsRefusedInOneLineSayingItCouldNotStartWithoutATrace() {
        CliTest.Run r = new CliChild(dir, SHIPPED_LOG_LEVEL).run(new String[] {"/exit"},
                "chat", "--model", "scripted", "--db", dir.resolve("x.db").toString(), "--mcp", "x=no-such-command-4711 a");
        assertThat(r.code()).as(r.err()).isEqualTo(2); // a --mcp that cannot be used is bad usage, as a malformed one
        List<String> err = lines(r.err());
        assertThat(err).as(r.err()).hasSize(2); // the refusal and the hint naming --help
        assertThat(err.get(0)).startsWith("threadline: --mcp 'x=no-such-command-4711 a': MCP server 'x' could not be started: ")
                .contains("the command 'no-such-command-4711' could not start: ").doesNotContain("exited");
        assertThat(err.get(1)).contains("--help");
    }

    @Test
    void aHealthyMcpChatPrintsNothingOnStderrAtStartOrExit() {
        Path script = Path.of("../threadline-mcp/src/test/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
                .toAbsolutePath().normalize();
        assertThat(Files.isRegularFile(script))
                .as("%s is missing: run `npm ci --prefix threadline-mcp/src/test/node`", script).isTrue();
        CliTest.Run r = new CliChild(dir, SHIPPED_LOG_LEVEL).run(new String[] {"/exit"},
                "chat", "--model", "scripted", "--db", dir.resolve("x.db").toString(), "--mcp", "every=node '" + script + "' stdio");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("MCP server 'every':");
        assertThat(r.err()).isEmpty();
    }
}
