package dev.threadline.examples.langgraph4j;

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
    void aGraphThreadIsResumedFromItsLastCheckpointByANewRuntime(@TempDir Path dir) throws Exception {
        String out = run(new String[] {dir.toString()});

        expect(out, "first run: [step 1, step 2, step 3]");
        expect(out, "resumed in a new runtime: 6 messages, last: step 6");
        var counts = java.util.regex.Pattern.compile("checkpoints of thread-1: (\\d+), journal events: (\\d+)").matcher(out);
        assertTrue(counts.find(), out);
        int checkpoints = Integer.parseInt(counts.group(1));
        assertTrue(checkpoints >= 6, "a checkpoint per step at least: " + checkpoints);
        // one journal step per checkpoint, after the session's creation: the saver writes nothing else
        assertTrue(Integer.parseInt(counts.group(2)) == checkpoints + 1, out);
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
