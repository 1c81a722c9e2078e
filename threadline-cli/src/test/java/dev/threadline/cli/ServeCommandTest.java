package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code threadline serve} as a child JVM (started, and refusing to start), and {@code threadline keys} against its key file. */
class ServeCommandTest {
    @TempDir
    Path dir;

    @Test
    void servesWithTheKeyItPrintsOnceAndHonoursKeysMadeAndRevokedByTheCli() throws Exception {
        Path db = dir.resolve("t.db");
        String key;
        try (ServeProcess server = new ServeProcess(db)) {
            key = server.createdKey;
            assertThat(key).matches("tl_[0-9A-Za-z]{43}");
            assertThat(server.url.getHost()).isEqualTo("127.0.0.1");
            assertThat(server.output).noneMatch(l -> l.contains("INFO")); // quiet when healthy

            assertThat(server.send(key, "POST", "/v1/sessions", "{\"id\":\"c1\"}").status()).isEqualTo(201);
            ServeProcess.Response turn = server.send(key, "POST", "/v1/sessions/c1/messages", "{\"text\":\"what is 2+3\"}");
            assertThat(turn.json().path("reply").asText()).contains("5");

            String created = cli("keys", "create", "--tenant", "acme", "--db", db.toString()).trim();
            assertThat(created).matches("tl_[0-9A-Za-z]{43}"); // the key and nothing else on stdout
            assertThat(server.send(created, "GET", "/v1/sessions/c1", null).status()).isEqualTo(404); // another tenant
            assertThat(server.send(created, "POST", "/v1/sessions", "{\"id\":\"c1\"}").status()).isEqualTo(201);

            String list = cli("keys", "list", "--db", db.toString());
            assertThat(list).contains("default", "acme").doesNotContain(created).doesNotContain(key);
            String acmeId = list.lines().filter(l -> l.contains("acme")).findFirst().orElseThrow().split("\\s+")[0];
            assertThat(cli("keys", "revoke", acmeId, "--db", db.toString())).contains("Revoked");
            assertThat(server.send(created, "GET", "/v1/sessions", null).status()).isEqualTo(401);
        }
        try (ServeProcess again = new ServeProcess(db)) {
            assertThat(again.createdKey).isNull(); // a key exists: none is made, none printed
            assertThat(again.output).noneMatch(l -> l.contains("tl_"));
            assertThat(again.send(key, "GET", "/v1/sessions/c1/state", null).json().path("messages").size()).isGreaterThan(1);
        }
    }

    @Test
    void aPortOutOfRangeIsAUsageErrorNotAStackTrace() throws Exception {
        ServeProcess.Exit r = ServeProcess.exit("--store", "memory:", "--port", "99999");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().findFirst().orElseThrow()).isEqualTo("threadline: invalid --port: 99999 is not a port (0-65535)");
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void aPortInUseIsOneLineAndExitOneNotAStackTrace() throws Exception {
        Path db = dir.resolve("busy.db");
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            ServeProcess.Exit r = ServeProcess.exit("--db", db.toString(), "--port", String.valueOf(port));
            assertThat(r.code()).as(r.err()).isEqualTo(1);
            assertThat(r.out()).isEmpty();
            assertThat(r.err().strip()).doesNotContain("\n")
                    .isEqualTo("threadline: cannot listen on 127.0.0.1:" + port + ": the port is in use; choose another with --port (0 picks a free one)");
        }
        assertThat(db).as("no store, and so no key nobody saw, is made when the port is taken").doesNotExist();
    }

    @Test
    void aMissingConfigFileSaysItWasNotFoundAndWhere() {
        Path missing = dir.resolve("nope.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true),
                "serve", "--store", "memory:", "--port", "0", "--config", missing.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines().findFirst().orElseThrow())
                .isEqualTo("threadline: invalid --config: " + missing.toAbsolutePath() + " was not found");
        assertThat(out.toString()).isEmpty();
    }

    private static String cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true), args);
        assertThat(code).as(err.toString()).isZero();
        return out.toString();
    }
}
