package dev.threadline.bench.kit;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The warm-up's stopping rule, on a JIT clock the test drives from the rounds run. */
class JitWarmUpTest {

    /** A compilation time that is a function of the rounds run so far. */
    private static final class FakeJit implements LongSupplier {
        final AtomicInteger rounds = new AtomicInteger();
        final java.util.function.IntToLongFunction millisAfter;

        FakeJit(java.util.function.IntToLongFunction millisAfter) {
            this.millisAfter = millisAfter;
        }

        @Override
        public long getAsLong() {
            return millisAfter.applyAsLong(rounds.get());
        }
    }

    @Test
    void stopsAtTheFirstLookWhoseLastWindowCompiledNoMoreThanTheQuietBound() throws Exception {
        // 30 ms of compiling every 500 rounds until round 6,000, then nothing: the window 6,000..8,000 is the first quiet one
        FakeJit jit = new FakeJit(r -> 30L * (Math.min(r, 6_000) / 500));
        JitWarmUp.Outcome o = JitWarmUp.run(100, 40_000, jit, i -> jit.rounds.incrementAndGet());
        assertThat(o.rounds()).isEqualTo(8_000);
        assertThat(o.quiet()).isTrue();
        assertThat(o.lastWindowMillis()).isZero();
        assertThat(o.lastWindowRounds()).isEqualTo(JitWarmUp.WINDOW);
        assertThat(o.describe()).isEqualTo("8,000 rounds, until the JIT was quiet (0 ms compiling in the last 2,000)");
    }

    @Test
    void aTrickleBelowTheBoundCountsAsQuietAndOneAboveItDoesNot() throws Exception {
        FakeJit below = new FakeJit(r -> (long) r * JitWarmUp.QUIET_MILLIS / JitWarmUp.WINDOW);
        assertThat(JitWarmUp.run(0, 40_000, below, i -> below.rounds.incrementAndGet()).rounds()).isEqualTo(JitWarmUp.WINDOW);
        FakeJit above = new FakeJit(r -> (long) r * (JitWarmUp.QUIET_MILLIS + 1) / JitWarmUp.WINDOW);
        JitWarmUp.Outcome o = JitWarmUp.run(0, 6_000, above, i -> above.rounds.incrementAndGet());
        assertThat(o.rounds()).isEqualTo(6_000);
        assertThat(o.quiet()).isFalse();
        assertThat(o.lastWindowMillis()).isEqualTo(JitWarmUp.QUIET_MILLIS + 1);
        assertThat(o.describe()).isEqualTo("6,000 rounds, its bound, the JIT not quiet yet (21 ms compiling in the last 2,000)");
    }

    @Test
    void runsAtLeastTheLeastRoundsEvenWhenTheJitIsQuietFromTheStart() throws Exception {
        FakeJit flat = new FakeJit(r -> 5);
        AtomicInteger next = new AtomicInteger();
        JitWarmUp.Outcome o = JitWarmUp.run(5_000, 40_000, flat, i -> {
            assertThat(i).isEqualTo(next.getAndIncrement()); // rounds are numbered from 0, in order
            flat.rounds.incrementAndGet();
        });
        assertThat(o.rounds()).isEqualTo(5_000);
        assertThat(o.quiet()).isTrue();
    }

    @Test
    void boundsShorterThanAWindowStopAtTheBoundAndSayHowFewRoundsTheyLookedAt() throws Exception {
        FakeJit flat = new FakeJit(r -> 5);
        JitWarmUp.Outcome o = JitWarmUp.run(8, 8, flat, i -> flat.rounds.incrementAndGet());
        assertThat(o.rounds()).isEqualTo(8);
        assertThat(o.quiet()).isFalse(); // 8 rounds are no window: nothing is claimed about the JIT
        assertThat(o.lastWindowRounds()).isEqualTo(8);
        assertThat(o.describe()).isEqualTo("8 rounds, its bound, the JIT not quiet yet (0 ms compiling in the last 8)");
    }

    @Test
    void aJvmThatCannotTellItsCompilationTimeRunsTheLeastRounds() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        JitWarmUp.Outcome o = JitWarmUp.run(300, 40_000, () -> -1, i -> ran.incrementAndGet());
        assertThat(ran.get()).isEqualTo(300);
        assertThat(o.quiet()).isFalse();
        assertThat(o.describe()).isEqualTo("300 rounds (the JIT's compilation time not read)");
    }

    @Test
    void badBoundsAreRefusedBeforeAnyRound() {
        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> JitWarmUp.run(10, 5, () -> 0, i -> ran.incrementAndGet()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("warm-up bounds must be 0 <= min <= max, were 10 and 5");
        assertThat(ran.get()).isZero();
    }

    @Test
    void aWindowOfItsOwnJudgesSlowerRoundsTheSameWay() throws Exception {
        // cold loads: 50 ms of compiling a round for 12 rounds, then 1 ms a round: 10 rounds of 1 ms are quiet at round 25
        FakeJit jit = new FakeJit(r -> 50L * Math.min(r, 12) + Math.max(0, r - 12));
        JitWarmUp.Outcome o = JitWarmUp.run(5, 300, JitWarmUp.Window.LOADS, jit, i -> jit.rounds.incrementAndGet());
        assertThat(o.rounds()).isEqualTo(25);
        assertThat(o.quiet()).isTrue();
        assertThat(o.lastWindowMillis()).isEqualTo(10);
        assertThat(o.describe()).isEqualTo("25 rounds, until the JIT was quiet (10 ms compiling in the last 10)");
    }

    @Test
    void aWindowThatCannotBeJudgedIsRefused() {
        assertThatThrownBy(() -> new JitWarmUp.Window(0, 10, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 < checkEvery <= rounds");
        assertThatThrownBy(() -> new JitWarmUp.Window(3, 10, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a multiple of checkEvery");
        assertThatThrownBy(() -> new JitWarmUp.Window(5, 10, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("quietMillis >= 0");
    }

    @Test
    void thisJvmReportsItsCompilationTime() {
        assertThat(JitWarmUp.jitMillis()).isGreaterThanOrEqualTo(0); // HotSpot monitors it: the bench's runs rely on it
    }
}
