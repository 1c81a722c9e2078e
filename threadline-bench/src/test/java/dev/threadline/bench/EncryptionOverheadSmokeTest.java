package dev.threadline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.threadline.harness.servers.RedisProcess;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bench encryption} with tiny sizes: both variants are measured in one run, the sealed file really is
 * sealed (the conversation's text is in the plain file and not in the sealed one), and the stored overhead per event
 * is positive and within the 40 bytes. Times are not asserted.
 */
class EncryptionOverheadSmokeTest {
    private static final Pattern OVERHEAD = Pattern.compile("sealed - plain per event: payload \\+([0-9.]+) B, file ([-+][0-9.]+) B");

    @TempDir
    Path dir;

    @Test
    void aSmallRunMeasuresBothAndTheSealedFileHoldsNoText() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EncryptionOverhead.main(new String[] {"--dir", dir.toString(), "--messages", "40", "--steps", "30",
                "--rounds", "2", "--synchronous", "normal"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        String report = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(report).contains("| plain |").contains("| sealed |").contains("sealed / plain: step median").contains("the seal alone");
        Matcher m = OVERHEAD.matcher(report);
        assertThat(m.find()).as(report).isTrue();
        assertThat(Double.parseDouble(m.group(1))).isPositive().isLessThanOrEqualTo(40.0);
        String text = "quarterly numbers";
        assertThat(contains(dir.resolve("plain.db"), text)).isTrue();
        assertThat(contains(dir.resolve("sealed.db"), text)).isFalse();
    }

    @Test
    void onRedisBothAreMeasuredOnOneServerAndTheSealedEventsHoldMoreBytes() throws Exception {
        SharedAndFrameworksSmokeTest.needs(() -> RedisProcess.binary("redis-server"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EncryptionOverhead.main(new String[] {"--store", "redis", "--messages", "20", "--steps", "40", "--rounds", "2"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String report = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(report).contains("Redis ").contains("| plain |").contains("| sealed |").contains("the seal alone");
        Matcher m = Pattern.compile("sealed - plain per event: held ([-+][0-9.]+) B").matcher(report);
        assertThat(m.find()).as(report).isTrue();
        assertThat(Double.parseDouble(m.group(1))).as("a sealed entry is 33 bytes longer").isPositive();
    }

    @Test
    void aBadOptionIsAUsageErrorNamingIt() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EncryptionOverhead.main(new String[] {"--synchronous", "sometimes"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--synchronous 'sometimes'");
    }

    private static boolean contains(Path file, String text) throws Exception {
        return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
    }
}
