package dev.threadline.examples.langchain4j;

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
    void aiServicesConversationIsKeptPairedAndContinuedByASecondRuntime(@TempDir Path dir) throws Exception {
        String out = run(new String[] {dir.toString()});

        expect(out, "answer: The sum is 5.");
        expect(out, "answer: The sum is 42.");
        expect(out, "memory: 9 messages, 2 tool results");
        expect(out, "transcript roles [user, assistant, tool, assistant, user, assistant, tool, assistant]");
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
