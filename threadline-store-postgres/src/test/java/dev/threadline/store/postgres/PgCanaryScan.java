package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.PgServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Looks for a canary's bytes where a PostgreSQL server keeps data: its data directory and a dump. Stateless. */
final class PgCanaryScan {
    private PgCanaryScan() {}

    /** Whether any file under the server's data directory (tables, WAL, ...) holds {@code canary}'s UTF-8 bytes. */
    static boolean inDataDirectory(PgServer server, String canary) throws IOException {
        String needle = new String(canary.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1); // one char per byte
        try (Stream<Path> files = Files.walk(server.dataDirectory())) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                byte[] hay;
                try {
                    hay = Files.readAllBytes(f);
                } catch (NoSuchFileException gone) {
                    continue; // removed by the server while we walked
                }
                if (new String(hay, StandardCharsets.ISO_8859_1).contains(needle)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A plain-text {@code pg_dump} of database {@code db} (every schema, data included). */
    static String pgDump(PgServer server, String db) throws Exception {
        Process p = new ProcessBuilder(List.of(PgServer.binaries().resolve("pg_dump").toString(), "-h", "127.0.0.1",
                "-p", Integer.toString(server.port()), "-U", PgServer.USER, db)).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(out, StandardCharsets.UTF_8)).isZero();
        return new String(out, StandardCharsets.UTF_8);
    }
}
