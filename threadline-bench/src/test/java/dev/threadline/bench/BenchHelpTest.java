package dev.threadline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./threadline bench --help} prints the bench's usage at once (issue 26, item 9): it used to build
 * the bench's jar with Maven first. The launcher runs from a copy of the repository's script in a temp
 * directory, where no jar exists, with a fake {@code mvn} first on PATH that notes it was called; the
 * same copy without {@code --help} does call it, so the fake is what the launcher would reach.
 */
class BenchHelpTest {
    private static final Path REPO = Path.of("..");
    private static final Path USAGE = Path.of("src/main/resources/dev/threadline/bench/usage.txt");

    @TempDir
    Path dir;

    @Test
    void benchMainPrintsTheUsageFileTheLauncherPrints() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchMain.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(USAGE)).startsWith("usage: threadline bench ");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void theLauncherPrintsTheBenchsHelpWithoutBuilding() throws Exception {
        Path copy = dir.resolve("repo");
        copyInto(copy, "threadline", "scripts/jdk.sh", "threadline-bench/" + USAGE);
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path called = dir.resolve("mvn-called");
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\necho \"$@\" >>'" + called + "'\necho 'fake mvn: no build here' >&2\nexit 1\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));

        for (List<String> args : List.of(List.of("bench", "--help"), List.of("bench", "-h"), List.of("bench", "--quick", "--help"))) {
            Run r = launch(copy, bin, args);
            assertThat(r.code).as(args + ": " + r.err).isZero();
            assertThat(r.out).as(args.toString()).isEqualTo(Files.readString(USAGE));
            assertThat(r.err).as(args.toString()).doesNotContain("building");
            assertThat(called).as(args + " must not run Maven").doesNotExist();
        }

        Run run = launch(copy, bin, List.of("bench", "--quick"));
        assertThat(run.code).as("a run needs the jar, which this copy lacks").isNotZero();
        assertThat(run.err).contains("building the benchmarks");
        assertThat(called).as("without --help the launcher builds the jar with the mvn on PATH").exists();
        assertThat(Files.readString(called)).contains("-pl threadline-bench");
    }

    private record Run(int code, String out, String err) {}

    private Run launch(Path copy, Path bin, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", copy.resolve("threadline").toString()));
        cmd.addAll(args);
        Path err = dir.resolve("launcher.err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
        pb.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the launcher did not end in 60 s: " + cmd);
        }
        return new Run(p.exitValue(), out, Files.readString(err));
    }

    private static void copyInto(Path copy, String... files) throws IOException {
        for (String f : files) {
            Path to = copy.resolve(f);
            Files.createDirectories(to.getParent());
            Files.copy(REPO.resolve(f), to);
        }
    }
}
