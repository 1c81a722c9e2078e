package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code chat --mcp}: the servers start as real processes and their tools become the chat's skills. */
class ChatWithMcpTest {
    @TempDir
    Path dir;

    private int run(StringWriter out, StringWriter err, String... args) {
        return Main.run(new ByteArrayInputStream("/exit\n".getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
    }

    @Test
    void theServersToolsAreListedAtStart() {
        Path script = Path.of("../threadline-mcp/src/test/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
                .toAbsolutePath().normalize();
        assertThat(Files.isRegularFile(script))
                .as("%s is missing: run `npm ci --prefix threadline-mcp/src/test/node`", script).isTrue();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = run(out, err, "chat", "--model", "scripted", "--db", dir.resolve("x.db").toString(),
                "--mcp", "fs=node '" + script + "' '" + dir + "'");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("MCP server 'fs':").contains("fs_read_text_file").contains("fs_write_file");
    }

    @Test
    void aBadSpecOrAServerThatDoesNotStartIsRefusedNamingIt() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(out, err, "chat", "--model", "scripted", "--db", dir.resolve("x.db").toString(), "--mcp", "nothing"))
                .isNotZero();
        assertThat(err.toString()).contains("--mcp 'nothing'");
        StringWriter err2 = new StringWriter();
        assertThat(run(new StringWriter(), err2, "chat", "--model", "scripted", "--db", dir.resolve("y.db").toString(),
                "--mcp", "dead=node -e process.exit(3)")).isNotZero();
        assertThat(err2.toString()).contains("MCP server 'dead' could not be started");
    }
}
