package dev.threadline.bench.kit;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Untimed rounds of a benchmark's work until the JIT has compiled what they run: at least {@code min}
 * rounds, then until the JIT's total compilation time rose by at most a quiet bound over the last
 * rounds of a {@link Window} (20 ms over 2,000 rounds for steps), or {@code max} rounds at most. A
 * step of the runtime runs through many more methods than the raw floor's one driver call, and the
 * JIT keeps compiling them (C2) for some ten to twenty thousand steps on a PostgreSQL store: a fixed
 * warm-up of 200 rounds, as the shared-store run once had, timed part of that code still interpreted
 * or profiled and charged it to the step (ADR 0033). Not thread-safe; the work runs on the calling
 * thread. Public for the turn-cost benchmark of {@code dev.threadline.bench.server}.
 */
public final class JitWarmUp {
    /**
     * When the JIT counts as quiet.
     *
     * @param checkEvery  rounds between two looks at the JIT's compilation time
     * @param rounds      the rounds over which it must have been quiet (a multiple of {@code checkEvery})
     * @param quietMillis at most this much compilation over those rounds counts as quiet
     */
    public record Window(int checkEvery, int rounds, long quietMillis) {
        /** For steps of well under a millisecond: 20 ms over 2,000 rounds, looked at every 500. */
        public static final Window STEPS = new Window(500, 2_000, 20);
        /** For cold loads of tens of milliseconds: 10 ms over 10 rounds, looked at every 5. */
        public static final Window LOADS = new Window(5, 10, 10);

        /** @throws IllegalArgumentException unless {@code 0 < checkEvery <= rounds}, a multiple of it, and {@code quietMillis >= 0} */
        public Window {
            if (checkEvery < 1 || rounds < checkEvery || rounds % checkEvery != 0 || quietMillis < 0) {
                throw new IllegalArgumentException("a JIT window needs 0 < checkEvery <= rounds, rounds a multiple of checkEvery"
                        + " and quietMillis >= 0; was " + checkEvery + ", " + rounds + ", " + quietMillis);
            }
        }
    }

    /** The rounds over which steps' warm-ups must have been quiet ({@link Window#STEPS}). */
    static final int WINDOW = Window.STEPS.rounds();
    /** Their quiet bound, ms. */
    static final long QUIET_MILLIS = Window.STEPS.quietMillis();

    private JitWarmUp() {}

    /** One untimed round of the work. */
    public interface Round {
        /** Runs round {@code i} (0-based); any exception ends the warm-up and the run. */
        void run(int i) throws Exception;
    }

    /**
     * What a warm-up did.
     *
     * @param rounds           rounds run
     * @param quiet            whether it stopped because the JIT was quiet (false: it reached its bound, or the JVM
     *                         cannot tell its compilation time, or the bounds allowed no window)
     * @param lastWindowMillis the JIT's compilation time over the last {@code lastWindowRounds} rounds (-1: not known)
     * @param lastWindowRounds the rounds that window spans: {@link #WINDOW}, or fewer when the bounds stopped it sooner
     */
    public record Outcome(int rounds, boolean quiet, long lastWindowMillis, int lastWindowRounds) {
        /** One phrase for a report, e.g. "12,500 rounds, until the JIT was quiet (8 ms compiling in the last 2,000)". */
        public String describe() {
            if (lastWindowMillis < 0) {
                return String.format(Locale.ROOT, "%,d rounds (the JIT's compilation time not read)", rounds);
            }
            return String.format(Locale.ROOT, "%,d rounds, %s (%d ms compiling in the last %,d)", rounds,
                    quiet ? "until the JIT was quiet" : "its bound, the JIT not quiet yet", lastWindowMillis, lastWindowRounds);
        }
    }

    /**
     * The JIT's total compilation time in milliseconds, or -1 when this JVM does not monitor it.
     * Thread-safe.
     */
    public static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /**
     * {@link #run(int, int, Window, LongSupplier, Round)} for steps, with this JVM's compilation time.
     *
     * @throws IllegalArgumentException when {@code min < 0} or {@code max < min}
     * @throws Exception                what a round threw
     */
    public static Outcome run(int min, int max, Round round) throws Exception {
        return run(min, max, Window.STEPS, JitWarmUp::jitMillis, round);
    }

    /** {@link #run(int, int, Window, LongSupplier, Round)} for steps. */
    static Outcome run(int min, int max, LongSupplier jitMillis, Round round) throws Exception {
        return run(min, max, Window.STEPS, jitMillis, round);
    }

    /**
     * Runs rounds as the class comment says.
     *
     * @param min         the least rounds
     * @param max         the most rounds (at least {@code min})
     * @param window      when the JIT counts as quiet
     * @param jitMillis   the JIT's total compilation time, ms (-1: not known, then {@code min} rounds run)
     * @throws IllegalArgumentException when {@code min < 0} or {@code max < min}
     * @throws Exception                what a round threw
     */
    public static Outcome run(int min, int max, Window window, LongSupplier jitMillis, Round round) throws Exception {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("warm-up bounds must be 0 <= min <= max, were " + min + " and " + max);
        }
        int looks = window.rounds() / window.checkEvery();
        long[] seen = new long[looks + 1]; // the compilation time at the latest looks, a ring; look k at seen[k % length]
        long first = jitMillis.getAsLong();
        if (first < 0) {
            for (int i = 0; i < min; i++) {
                round.run(i);
            }
            return new Outcome(min, false, -1, 0);
        }
        seen[0] = first;
        int[] at = new int[looks + 1]; // the rounds done at each of those looks
        int taken = 1; // looks so far, the first before any round
        int i = 0;
        while (i < max) {
            round.run(i);
            i++;
            if (i % window.checkEvery() == 0 || i == max) {
                long now = jitMillis.getAsLong();
                seen[taken % seen.length] = now;
                at[taken % at.length] = i;
                taken++;
                int back = Math.min(looks, taken - 1);
                int from = (taken - 1 - back) % seen.length;
                boolean quiet = i - at[from] >= window.rounds() && now - seen[from] <= window.quietMillis();
                if (i == max || (quiet && i >= min)) {
                    return new Outcome(i, quiet, now - seen[from], i - at[from]);
                }
            }
        }
        return new Outcome(0, false, 0, 0); // max == 0
    }
}
