package dev.threadline.examples.modular;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the example on the module path (this project has a module-info, so surefire puts it and Threadline's
 * modules there) and checks that Threadline's modules are explicit, export only their API, provide their
 * stores to core's ServiceLoader, and run a turn.
 */
class MainTest {
    @Test
    void threadlinesModulesResolveAsNamedModulesAndRunATurn(@TempDir Path dir) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            Main.main(new String[] {dir.toString()});
        } finally {
            System.setOut(stdout);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);

        expect(out, "application module: dev.threadline.examples.modular");
        expect(out, "module dev.threadline.store.sqlite: exports dev.threadline.store.sqlite\n");
        expect(out, "module dev.threadline.store.postgres: exports dev.threadline.store.postgres\n");
        expect(out, "module dev.threadline.store.redis: exports dev.threadline.store.redis\n");
        expect(out, "module dev.threadline.store.jdbc: exports dev.threadline.store.jdbc to dev.threadline.store.postgres dev.threadline.store.sqlite\n");
        expect(out, "sqlite:PATH");
        expect(out, "postgresql://");
        expect(out, "redis://");
        expect(out, "store: SqliteStateStore from dev.threadline.store.sqlite");
        expect(out, "reply: (2+3)*4 = 20");
        expect(out, "engine exported: false");
    }

    private static void expect(String out, String text) {
        assertTrue(out.contains(text), () -> "expected \"" + text + "\" in the example's output:\n" + out);
    }
}
