package dev.threadline.harness.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SignalsTest {
    /**
     * Regression (stop 49): a full run started with {@code &} from a script made every child ignore SIGINT, and
     * the chat's Ctrl-C tests waited 30 s for a handler that never ran. Sending INT to such a child now fails at
     * once, naming the cause.
     */
    @Test
    void anInterruptToAProcessThatIgnoresItFailsAtOnceNamingTheCause() throws Exception {
        Process ignoring = new ProcessBuilder("sh", "-c", "trap '' INT; exec sleep 30").start();
        try {
            awaitIgnores(ignoring.pid());
            assertThatThrownBy(() -> Signals.send(ignoring.pid(), "INT"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ignores SIGINT")
                    .hasMessageContaining("run ./test in the foreground");
            assertThat(ignoring.isAlive()).isTrue();
        } finally {
            ignoring.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aProcessThatDoesNotIgnoreItIsNotReportedSo() throws Exception {
        Process plain = new ProcessBuilder("sleep", "30").start();
        try {
            assertThat(Signals.ignores(plain.pid(), "INT")).isEqualTo(Signals.ignores(ProcessHandle.current().pid(), "INT"));
            assertThat(Signals.ignores(plain.pid(), "STOP")).isFalse();
        } finally {
            plain.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The shell's trap takes effect a moment after start; a bounded poll of /proc, not a sleep. */
    private static void awaitIgnores(long pid) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Signals.ignores(pid, "INT")) {
            assertThat(System.nanoTime()).as("sh on pid %d to ignore SIGINT", pid).isLessThan(until);
            Thread.onSpinWait();
        }
    }
}
