package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `threadline sessions show` and `export`, run in a loop in this JVM beside a `threadline chat` running
 * in another, change nothing: the chat's journal is the same as that of a run with no readers (times
 * and generated command ids aside), no turn is interrupted, and every reader call succeeds.
 */
class ReadersBesideAChatTest {
    private static final List<String> INPUTS = inputs();

    @TempDir
    Path dir;

    private static List<String> inputs() {
        List<String> in = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            in.add("what is (" + i + "+3)*4");
            in.add("note item " + i);
        }
        return in;
    }

    @Test
    void showAndExportInALoopBesideARunningChatChangeNothing() throws Exception {
        Path alone = dir.resolve("alone.db");
        Path watched = dir.resolve("watched.db");
        chat(alone, () -> { });

        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger reads = new AtomicInteger();
        List<String> failures = new ArrayList<>();
        CompletableFuture<Void> readers = new CompletableFuture<>();
        chat(watched, () -> Thread.ofVirtual().start(() -> {
            try {
                while (!stop.get()) {
                    for (String cmd : List.of("show", "export")) {
                        StringWriter out = new StringWriter();
                        StringWriter err = new StringWriter();
                        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out), new PrintWriter(err),
                                "sessions", cmd, "s1", "--db", watched.toString());
                        if (code != 0 && !err.toString().contains("no session with id 's1'")) { // before the chat created it
                            synchronized (failures) {
                                failures.add(cmd + ": " + err);
                            }
                        }
                        reads.incrementAndGet();
                    }
                }
                readers.complete(null);
            } catch (RuntimeException e) {
                readers.completeExceptionally(e);
            }
        }), stop);
        readers.get(60, TimeUnit.SECONDS);

        assertThat(failures).isEmpty();
        assertThat(reads.get()).as("reader calls made while the chat ran").isGreaterThan(4);
        List<JsonNode> expected = normalised(export(alone));
        List<JsonNode> actual = normalised(export(watched));
        assertThat(actual).hasSize(expected.size()).isEqualTo(expected);
        assertThat(actual).noneMatch(e -> e.path("event").path("type").asText().equals("TurnInterrupted"));
    }

    /** Runs `threadline chat` in a child JVM over all inputs, one at a time, with {@code during} started after the first answer. */
    private void chat(Path db, Runnable during) throws Exception {
        chat(db, during, new AtomicBoolean());
    }

    private void chat(Path db, Runnable during, AtomicBoolean stopWhenDone) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "chat", "--model", "scripted", "--db", db.toString(), "--session", "s1", "--workspace", dir.toString())
                .redirectErrorStream(true).start();
        try (Writer in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            boolean started = false;
            for (String line : INPUTS) {
                in.write(line + "\n");
                in.flush();
                String l;
                while ((l = out.readLine()) != null && !l.startsWith("assistant:")) {
                    assertThat(l).as("chat output").doesNotStartWith("error:").doesNotContain("turn ended");
                }
                assertThat(l).as("an answer to '%s'", line).isNotNull();
                if (!started) {
                    during.run();
                    started = true;
                }
            }
            in.write("/exit\n");
            in.flush();
            while (out.readLine() != null) {
                // drain until the chat exits
            }
        } finally {
            stopWhenDone.set(true);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(p.exitValue()).isZero();
    }

    private static String export(Path db) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out), new PrintWriter(err),
                "sessions", "export", "s1", "--db", db.toString());
        assertThat(code).as(err.toString()).isZero();
        return out.toString();
    }

    /** Each exported event without what differs from run to run: times, generated command ids, the creation time. */
    private static List<JsonNode> normalised(String export) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : export.split("\n")) {
            ObjectNode o = (ObjectNode) Json.parse(line, "export line");
            o.remove("time");
            o.remove("command");
            if (o.path("event").path("session") instanceof ObjectNode info) {
                info.remove("createdAt");
            }
            out.add(o);
        }
        return out;
    }
}
