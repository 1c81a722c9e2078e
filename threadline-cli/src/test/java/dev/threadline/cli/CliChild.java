package dev.threadline.cli;

import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.Line;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

/**
 * Runs {@code threadline ARGS} as a process of its own (this test class path, the offline demo model
 * unless the args name another), feeds it lines and waits for its exit: a user's run, without a
 * terminal. Each run writes its stderr to a new file under {@code dir}.
 */
final class CliChild {
    static final Duration WAIT = Duration.ofSeconds(60);

    private final Path dir;
    private final String[] jvmOptions;
    private int runs;

    CliChild(Path dir) {
        this(dir, new String[0]);
    }

    /** Children started with these JVM options, e.g. a log level. */
    CliChild(Path dir, String... jvmOptions) {
        this.dir = dir;
        this.jvmOptions = jvmOptions.clone();
    }

    /** Starts {@code threadline args}; the caller sends lines and awaits what it prints. */
    ChildProcess start(String... args) {
        return ChildProcess.of(Main.class).name("threadline " + String.join(" ", args))
                .jvmOptions(jvmOptions).args(args).stderr(dir.resolve("child-" + (++runs) + ".err")).start();
    }

    /** Runs {@code threadline args} with {@code input} lines on stdin (a chat should end with /exit) to its exit. */
    CliTest.Run run(String[] input, String... args) {
        try (ChildProcess c = start(args)) {
            for (String line : input) {
                c.send(line);
            }
            int code = c.awaitExit(WAIT);
            String out = c.lines().stream().map(Line::text).collect(Collectors.joining("\n", "", "\n"));
            return new CliTest.Run(code, out, Files.readString(dir.resolve("child-" + runs + ".err")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a command that reads no input. */
    CliTest.Run run(String... args) {
        return run(new String[0], args);
    }
}
