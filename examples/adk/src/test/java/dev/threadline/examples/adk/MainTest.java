package dev.threadline.examples.adk;

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
    void anAdkSessionIsContinuedByASecondRuntimeWithItsEventsAndState(@TempDir Path dir) throws Exception {
        String out = run(new String[] {dir.toString()});

        expect(out, "reply: You said: hello (user turn 1)");
        expect(out, "reply: You said: still there? (user turn 2)");
        expect(out, "session s1: 5 events, state last_reply=You said: still there? (user turn 2), topic=greetings, user:name=Ada");
        expect(out, "session s2: topic=null, user:name=Ada");
        expect(out, "user scope in Threadline: {name=\"Ada\"}");
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
