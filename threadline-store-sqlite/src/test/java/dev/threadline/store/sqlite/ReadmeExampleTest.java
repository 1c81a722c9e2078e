package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java example, taken from README.md's own text: compiled with javac against the
 * library's runtime class path (no test libraries, no SLF4J binding) and run in a child JVM whose
 * working directory is a fresh, empty folder, as a reader who pasted it would run it.
 */
class ReadmeExampleTest {
    @TempDir
    Path dir;

    /** The first ```java block after the README's "### 3. The Java API" heading. */
    static String example() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int section = readme.indexOf("### 3. The Java API");
        assertThat(section).as("the README's Java API section").isPositive();
        Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(m.find(section)).as("a java block in that section").isTrue();
        return m.group(1);
    }

    /** The library's runtime class path as a user would have it: without tests, test libraries or a logging binding. */
    static String libraryClassPath() {
        Pattern notAUsers = Pattern.compile("test-classes|junit|assertj|jqwik|opentest4j|apiguardian|slf4j-simple|logback"
                + "|threadline-store-tck|byte-buddy");
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !notAUsers.matcher(e).find()).collect(Collectors.joining(File.pathSeparator));
    }

    @Test
    void theReadmeExampleCompilesFromTheReadmeAndRunsQuietlyInAFreshFolder() throws Exception {
        String source = example();
        assertThat(source).contains("public class Quickstart").contains("import dev.threadline.store.sqlite.SqliteStateStore;");
        Path src = Files.createDirectories(dir.resolve("src"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(src.resolve("Quickstart.java"), source);
        String cp = libraryClassPath();

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean compiled = javac.getTask(diagnostics, null, null, List.of("-Xlint:all", "-Werror", "-cp", cp, "-d", classes.toString()),
                null, javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(src.resolve("Quickstart.java")))
                .call();
        assertThat(compiled).as(diagnostics.toString()).isTrue();

        Path fresh = Files.createDirectories(dir.resolve("fresh"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classes + File.pathSeparator + cp, "Quickstart"));
        Process p = new ProcessBuilder(cmd).directory(fresh.toFile()).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(out).contains("(2+3)*4 = 20 | same on retry: true | 4 messages").contains("branch s1.r1");
        assertThat(err).as("a plain library run prints no warnings (SLF4J, native access)").isEmpty();
        assertThat(fresh.resolve("agents.db")).isRegularFile();
    }
}
