package dev.threadline.harness.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness starts a JVM child, reads it, pauses, resumes and kills it, and never waits unbounded. */
class ChildProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aPausedChildAnswersOnlyAfterItIsResumed() {
        List<String> heard = new CopyOnWriteArrayList<>();
        try (ChildProcess child = ChildProcess.of(EchoChild.class).name("echo").args("a", "b")
                .stderr(dir.resolve("echo.err")).onLine(l -> heard.add(l.text())).start()) {
            assertThat(child.awaitPrefix("READY", WAIT).text()).isEqualTo("READY a b");
            child.send("ping");
            Line ping = child.awaitLine(0, "the echo of ping", "ECHO ping"::equals, WAIT);

            child.pause();
            assertThat(Signals.state(child.pid())).isIn('T', 't', '?');
            child.send("while-stopped");
            long resumedAt = System.nanoTime();
            child.resume();
            Line late = child.awaitLine(ping.index() + 1, "the echo sent while stopped", "ECHO while-stopped"::equals, WAIT);

            assertThat(late.receivedNanos()).as("a stopped child prints nothing").isGreaterThan(resumedAt);
            assertThat(heard).startsWith("READY a b", "ECHO ping", "ECHO while-stopped");
            child.send("QUIT");
            assertThat(child.awaitExit(WAIT)).isZero();
        }
    }

    @Test
    void aKilledChildIsGoneEvenWhilePaused() {
        ChildProcess child = ChildProcess.of(EchoChild.class).stderr(dir.resolve("k.err")).start();
        child.awaitPrefix("READY", WAIT);
        child.pause();
        child.kill();
        assertThat(child.isAlive()).isFalse();
        child.close(); // idempotent once dead
    }

    @Test
    void aWaitThatTimesOutSaysWhatItWaitedForAndShowsTheChildsOutput() {
        try (ChildProcess child = ChildProcess.of(EchoChild.class).name("quiet").stderr(dir.resolve("q.err")).start()) {
            child.awaitPrefix("READY", WAIT);
            assertThatThrownBy(() -> child.awaitLine(0, "a line that never comes", "NEVER"::equals, Duration.ofMillis(200)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("quiet (pid " + child.pid() + ")")
                    .hasMessageContaining("no line in 200 ms while waiting for a line that never comes")
                    .hasMessageContaining("READY")
                    .hasMessageContaining("echo child started with 0 argument(s)");
        }
    }

    @Test
    void aFailingListenerIsReportedByTheNextWaitAndReadingGoesOn() {
        try (ChildProcess child = ChildProcess.of(EchoChild.class).stderr(dir.resolve("l.err")).onLine(l -> {
            if (l.text().equals("ECHO boom")) {
                throw new IllegalStateException("listener broke on " + l.text());
            }
        }).start()) {
            child.awaitPrefix("READY", WAIT);
            child.send("boom");
            child.send("after");
            assertThatThrownBy(() -> child.awaitLine(0, "the echo after the failure", "ECHO after"::equals, WAIT))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("the line listener failed")
                    .hasRootCauseMessage("listener broke on ECHO boom");
            assertThat(child.listenerFailure()).hasMessage("listener broke on ECHO boom");
            child.send("QUIT");
            assertThat(child.awaitExit(WAIT)).as("the child was not blocked on a full pipe").isZero();
        }
    }

    @Test
    void waitingOnAChildThatExitedFailsAtOnce() {
        try (ChildProcess child = ChildProcess.of(EchoChild.class).stderr(dir.resolve("e.err")).start()) {
            child.awaitPrefix("READY", WAIT);
            child.send("QUIT");
            assertThatThrownBy(() -> child.awaitPrefix("ECHO", WAIT))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("output ended");
        }
    }
}
