package dev.threadline.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.error.StorageException;
import org.junit.jupiter.api.Test;

class OneLineTest {
    @Test
    void keepsTheFirstLineAndClosesWhatTheCutLeftOpen() {
        assertThat(OneLine.of("corrupt value (Unexpected character\n at [Source: x; line: 1]"))
                .isEqualTo("corrupt value (Unexpected character…)");
    }

    @Test
    void cutsALongLineToMax() {
        String line = OneLine.of("x".repeat(OneLine.MAX * 2));
        assertThat(line).hasSize(OneLine.MAX + 1).endsWith("…");
    }

    @Test
    void aOneLineMessageIsKeptAsItIs() {
        StorageException e = new StorageException("session 's1' seq 3: corrupt", null);
        assertThat(OneLine.of(e)).isSameAs(e);
        assertThat(OneLine.of((String) null)).isEmpty();
    }

    @Test
    void aLongFailureBecomesOneLineKeepingItsCause() {
        IllegalStateException cause = new IllegalStateException("parser");
        StorageException cut = OneLine.of(new StorageException("first\nsecond", cause));
        assertThat(cut.getMessage()).isEqualTo("first…");
        assertThat(cut.getCause()).isSameAs(cause);
    }
}
