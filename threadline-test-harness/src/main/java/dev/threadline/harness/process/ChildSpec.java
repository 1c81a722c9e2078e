package dev.threadline.harness.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to start a {@link ChildProcess}: the main class, its arguments, JVM options, where its stderr
 * goes and who hears its stdout lines. The child runs with this JVM's {@code java} executable and class
 * path. Mutable builder; not thread-safe.
 */
public final class ChildSpec {
    /** JVM options that make a short-lived test child start fast and stay small. */
    public static final List<String> FAST_START = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m",
            "-Xshare:auto");

    private final Class<?> mainClass;
    private final List<String> args = new ArrayList<>();
    private final List<String> jvmOptions = new ArrayList<>(FAST_START);
    private String name;
    private Path stderr;
    private Consumer<Line> listener;

    ChildSpec(Class<?> mainClass) {
        this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
        this.name = mainClass.getSimpleName();
    }

    /** The child's name in reports (default: the main class's simple name). */
    public ChildSpec name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    /** Program arguments. */
    public ChildSpec args(String... args) {
        this.args.addAll(List.of(args));
        return this;
    }

    /** Program arguments. */
    public ChildSpec args(List<String> args) {
        this.args.addAll(args);
        return this;
    }

    /** Extra JVM options (after {@link #FAST_START}). */
    public ChildSpec jvmOptions(String... options) {
        this.jvmOptions.addAll(List.of(options));
        return this;
    }

    /** The file the child's stderr goes to (default: a file named after the child in the temp directory). */
    public ChildSpec stderr(Path file) {
        this.stderr = Objects.requireNonNull(file, "file");
        return this;
    }

    /** Called on the reader thread with each stdout line as it arrives (e.g. to feed a history). */
    public ChildSpec onLine(Consumer<Line> listener) {
        this.listener = listener;
        return this;
    }

    /** The command line the child will run. */
    public List<String> command() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.add("--enable-native-access=ALL-UNNAMED"); // sqlite-jdbc loads its native library: no JDK 22+ warning
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        return cmd;
    }

    /** Starts the child. */
    public ChildProcess start() {
        Path err = stderr != null ? stderr
                : Path.of(System.getProperty("java.io.tmpdir"), name.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + System.nanoTime() + ".err");
        return ChildProcess.start(name, command(), err, listener);
    }
}
