package dev.threadline.examples.plain;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the example as a user would and checks what it prints. */
class MainTest {
    @Test
    void runsTurnsSurvivesARestartAndRewinds(@TempDir Path dir) throws Exception {
        String out = run(new String[] {dir.toString()});

        expect(out, "reply: (2+3)*4 = 20");
        expect(out, "retry gave the first result: true");
        expect(out, "after restart: 8 messages");
        expect(out, "notes [\"buy milk\"]");
        expect(out, "branch s1.r1: 2^10 = 1024; notes there: null");
        expect(out, "original still has 8 messages");
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
