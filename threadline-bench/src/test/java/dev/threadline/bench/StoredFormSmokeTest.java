package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bench stored-form} on SQLite with tiny sizes: it measures both sides in one run and
 * prints the three ratios with their baselines. Byte counts are asserted only to be there and
 * plausible (Threadline keeps more than the bare text); times not at all.
 */
class StoredFormSmokeTest {
    @TempDir
    Path dir;

    @Test
    void aSmallRunReportsTheThreeRatiosWithTheirBaselines() throws Exception {
        StoredFormRun.Report r = StoredFormRun.run(new SqliteStoredForm(StoreUrl.parse("sqlite:" + dir.resolve("sf.db"))),
                120, 20, 1, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(r.plainBytes).isPositive();
        assertThat(r.threadlineBytes).isGreaterThan(120L * StoredFormRun.TEXT_CHARS);
        assertThat(r.plainLog).isPositive();
        assertThat(r.threadlineLog).isPositive();
        assertThat(r.threadlineLoadNanos).isPositive();
        assertThat(r.documentLoadNanos).isPositive();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.print(new PrintStream(out, true, StandardCharsets.UTF_8), "test");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("bytes stored per message").contains("log bytes written per step")
                .contains("cold load of the session").contains("<= 1.25").contains("<= 1.50");
    }

    @Test
    void aBadOptionIsAUsageErrorNamingIt() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = StoredFormRun.main(new String[] {"--messagez", "3"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--messagez");
    }

    @Test
    void theTextOfEveryMessageIsExactlyItsLengthAndDiffers() {
        assertThat(StoredFormRun.text(0)).hasSize(StoredFormRun.TEXT_CHARS);
        assertThat(StoredFormRun.text(9_999)).hasSize(StoredFormRun.TEXT_CHARS).isNotEqualTo(StoredFormRun.text(9_998));
    }
}
