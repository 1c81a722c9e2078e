package dev.threadline.bench.server;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.HdrHistogram.Histogram;

/**
 * The results of {@code threadline bench overload} and their table. Every turn's latency is from its
 * intended start (a backlog shows as latency), and turns are placed in time by their intended start.
 * <ul>
 *   <li><b>before</b>: turns meant to start before the kill;</li>
 *   <li><b>reference</b>: before the overload, an open loop on both nodes at 100 % of their saturation (no
 *       backlog: the search kept up with that rate), on sessions of its own;</li>
 *   <li><b>absorbed</b>: the survivor has absorbed the load at the start of the first window (of
 *       {@code --window-seconds}) after the one holding the kill from which on five windows in a row (or all
 *       that are left) have no error and a p99 at most twice the lower of the reference's p99 and the p99 of the turns meant to
 *       start in the ten windows before the kill (the state the kill interrupted; the reference keeps a
 *       backlog the overload built before the kill from counting as normal). As latency counts from the intended start,
 *       a backlog left over keeps the p99 up, so "absorbed" also means the backlog is gone (a window no turn was
 *       meant to start in is passed over). The absorb time
 *       is from the kill to then; when no such window comes, the load was not absorbed within the run;</li>
 *   <li><b>during</b>: turns meant to start from the kill until absorbed (to the end when never);</li>
 *   <li><b>after</b>: the rest.</li>
 * </ul>
 * Thread-safe once built.
 */
final class OverloadReport {
    /** How many windows in a row must keep within the bound for the load to count as absorbed. */
    static final int HOLD_WINDOWS = 5;

    /** How many windows before the kill give the p99 the survivor must return to. */
    static final int PRE_KILL_WINDOWS = 10;

    private OverloadReport() {}

    /** What each turn of the open loop did: filled by the loop as turns end (thread-safe), read after it. */
    static final class Requests implements OpenLoop.Observer {
        private final AtomicLongArray intended;
        private final AtomicLongArray end;
        private final AtomicIntegerArray state; // 0 unanswered, 1 ok, 2 error
        private final AtomicReferenceArray<String> error;

        Requests(int count) {
            intended = new AtomicLongArray(count);
            end = new AtomicLongArray(count);
            state = new AtomicIntegerArray(count);
            error = new AtomicReferenceArray<>(count);
        }

        @Override
        public void ended(long n, long intendedNanos, long endNanos, String kind) {
            int i = (int) n;
            intended.set(i, intendedNanos);
            end.set(i, endNanos);
            error.set(i, kind);
            state.set(i, kind == null ? 1 : 2);
        }

        int size() {
            return state.length();
        }

        boolean ok(int n) {
            return state.get(n) == 1;
        }
    }

    /**
     * Turns read back from the store after the run.
     *
     * @param acknowledged        turns answered with success
     * @param missing             acknowledged turns whose user message is not in their session
     * @param doubled             turns whose user message is there more than once
     * @param unacknowledgedHeld  turns not acknowledged (failed, or cut by the kill) that are there once
     */
    record Loss(long acknowledged, long missing, long doubled, long unacknowledgedHeld) {
        boolean none() {
            return missing == 0 && doubled == 0;
        }
    }

    /** One phase's turns (by intended start): latencies of the successful ones, errors by kind. */
    record Phase(String name, double fromSeconds, double toSeconds, long turns, long ok, Map<String, Long> errors, double p50Millis,
                 double p99Millis, double p999Millis, double maxMillis) {}

    /** One window of {@code --window-seconds} (by intended start), for a plot of latency over time. */
    record Window(double fromSeconds, long turns, long ok, long errors, double p50Millis, double p99Millis) {}

    /**
     * Everything one run measured; seconds count from the first turn's intended start.
     *
     * @param absorbSeconds from the kill until absorbed (see the class), or -1 when not absorbed within the run
     */
    record Results(String command, String how, Overload.Options options, double saturationPerSec, double ratePerSec, long turns,
                   long killAtTurn, double killAtSeconds, boolean nodeDied, boolean survivorStayedUp, long retriedOnSurvivor,
                   OpenLoop.Measurement reference, double preKillP99Millis, double absorbBoundMillis, double absorbSeconds, List<Phase> phases,
                   List<Window> windows, Loss loss) {

        static Results of(String command, String how, Overload.Options o, double saturation, double rate, Requests r, long killAt,
                          long killNanos, boolean died, boolean survivorUp, long retries, OpenLoop.Measurement reference, Loss loss) {
            long start = Long.MAX_VALUE;
            for (int n = 0; n < r.size(); n++) {
                if (r.state.get(n) != 0) {
                    start = Math.min(start, r.intended.get(n));
                }
            }
            if (start == Long.MAX_VALUE) {
                throw new IllegalStateException("no turn of the open loop was answered, not even with an error");
            }
            long kill = killNanos == 0 ? Long.MAX_VALUE : killNanos;
            long win = Math.round(o.windowSeconds() * 1e9);
            int windows = (int) Math.ceil(o.seconds() / o.windowSeconds());
            List<Histogram> hist = new ArrayList<>();
            long[] turns = new long[windows];
            long[] errors = new long[windows];
            for (int w = 0; w < windows; w++) {
                hist.add(new Histogram(3));
            }
            for (int n = 0; n < r.size(); n++) {
                int w = windowOf(r, n, start, win, windows);
                turns[w]++;
                if (r.ok(n)) {
                    hist.get(w).recordValue(latencyMicros(r, n));
                } else {
                    errors[w]++;
                }
            }
            int killWindow = kill == Long.MAX_VALUE ? windows : (int) Math.min(windows, Math.max(0, (kill - start) / win));
            Histogram preKill = new Histogram(3);
            for (int n = 0; n < r.size(); n++) {
                long at = r.intended.get(n);
                if (r.ok(n) && at < kill && at >= kill - PRE_KILL_WINDOWS * win) {
                    preKill.recordValue(latencyMicros(r, n));
                }
            }
            double preKillP99 = ms(preKill.getTotalCount() > 0 ? preKill.getValueAtPercentile(99) : 0);
            double bound = 2 * (preKillP99 > 0 ? Math.min(preKillP99, reference.p99Millis()) : reference.p99Millis());
            int absorbedAt = windows; // the first window of the absorbed run to the end
            for (int w = killWindow + 1; w < windows && absorbedAt == windows; w++) {
                int fine = 0;
                boolean held = turns[w] > 0; // a window no turn was meant to start in is no evidence either way
                for (int v = w; held && v < windows && fine < HOLD_WINDOWS; v++) {
                    if (turns[v] > 0) {
                        held = errors[v] == 0 && ms(hist.get(v).getValueAtPercentile(99)) <= bound;
                        fine++;
                    }
                }
                if (held) {
                    absorbedAt = w;
                }
            }
            long absorbed = absorbedAt >= windows ? Long.MAX_VALUE : start + absorbedAt * win;
            List<Phase> phases = List.of(phase("before", r, start, Long.MIN_VALUE, kill, o.seconds()),
                    phase("during", r, start, kill, absorbed, o.seconds()), phase("after", r, start, absorbed, Long.MAX_VALUE, o.seconds()));
            List<Window> ws = new ArrayList<>();
            for (int w = 0; w < windows; w++) {
                Histogram h = hist.get(w);
                boolean any = h.getTotalCount() > 0;
                ws.add(new Window(round(w * o.windowSeconds()), turns[w], h.getTotalCount(), errors[w],
                        any ? ms(h.getValueAtPercentile(50)) : 0, any ? ms(h.getValueAtPercentile(99)) : 0));
            }
            return new Results(command, how, o, saturation, rate, r.size(), killAt, kill == Long.MAX_VALUE ? -1 : round((kill - start) / 1e9),
                    died, survivorUp, retries, reference, preKillP99, bound, absorbed == Long.MAX_VALUE || kill == Long.MAX_VALUE ? -1
                            : round((absorbed - kill) / 1e9), phases, ws, loss);
        }

        private static int windowOf(Requests r, int n, long start, long win, int windows) {
            long at = r.state.get(n) == 0 ? start : r.intended.get(n); // an unanswered turn has no time: counted in the first window
            return (int) Math.min(windows - 1, Math.max(0, (at - start) / win));
        }

        private static Phase phase(String name, Requests r, long start, long from, long to, double seconds) {
            Histogram h = new Histogram(3);
            Map<String, Long> errors = new TreeMap<>();
            long turns = 0;
            for (int n = 0; n < r.size(); n++) {
                if (r.state.get(n) == 0) {
                    if (name.equals("before")) {
                        errors.merge("unanswered after drain", 1L, Long::sum); // no time known: shown once, here
                        turns++;
                    }
                    continue;
                }
                long at = r.intended.get(n);
                if (at < from || at >= to) {
                    continue;
                }
                turns++;
                if (r.ok(n)) {
                    h.recordValue(latencyMicros(r, n));
                } else {
                    errors.merge(r.error.get(n), 1L, Long::sum);
                }
            }
            boolean any = h.getTotalCount() > 0;
            return new Phase(name, from == Long.MIN_VALUE ? 0 : Math.min(seconds, round((from - start) / 1e9)),
                    to == Long.MAX_VALUE ? seconds : round((to - start) / 1e9), turns, h.getTotalCount(), errors, any ? ms(h.getValueAtPercentile(50)) : 0,
                    any ? ms(h.getValueAtPercentile(99)) : 0, any ? ms(h.getValueAtPercentile(99.9)) : 0, any ? ms(h.getMaxValue()) : 0);
        }

        private static long latencyMicros(Requests r, int n) {
            return Math.max(1, (r.end.get(n) - r.intended.get(n)) / 1000);
        }
    }

    static void print(Results r, PrintStream out) {
        out.println("## threadline bench overload");
        out.println();
        out.printf(Locale.ROOT, "%s; saturation %.1f turns/s, offered %.1f turns/s (%.0f %%) for %s s, %d turns; node b SIGKILLed at %.1f s"
                        + " (turn %d): %s; %d turns retried on the survivor%n%n", r.how(), r.saturationPerSec(), r.ratePerSec(),
                r.options().load() * 100, r.options().seconds(), r.turns(), r.killAtSeconds(), r.killAtTurn(),
                r.nodeDied() ? "it died" : "it did NOT die", r.retriedOnSurvivor());
        out.println("| phase (by intended start) | seconds | turns | ok | errors | p50 ms | p99 ms | p99.9 ms | max ms |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        OpenLoop.Measurement ref = r.reference();
        out.printf(Locale.ROOT, "| reference: 100 %% on both nodes | before the load | %,d | %,d | %s | %.1f | %.1f | %.1f | %.1f |%n",
                ref.sent(), ref.ok(), ref.errors().isEmpty() ? "0" : ref.errors().toString(),
                ref.p50Millis(), ref.p99Millis(), ref.p999Millis(), ref.maxMillis());
        for (Phase p : r.phases()) {
            out.printf(Locale.ROOT, "| %s | %s | %,d | %,d | %s | %.1f | %.1f | %.1f | %.1f |%n", p.name(), span(p),
                    p.turns(), p.ok(), p.errors().isEmpty() ? "0" : p.errors().toString(), p.p50Millis(), p.p99Millis(),
                    p.p999Millis(), p.maxMillis());
        }
        out.println();
        out.println(r.absorbSeconds() < 0 ? String.format(Locale.ROOT, "absorbed: not within the run (no window after the kill from"
                + " which on " + HOLD_WINDOWS + " windows in a row have no error and p99 <= %.1f ms)", r.absorbBoundMillis())
                : String.format(Locale.ROOT, "absorbed: %.1f s after the kill (from then on %d windows of %s s in a row: no error,"
                        + " p99 <= %.1f ms)", r.absorbSeconds(), HOLD_WINDOWS, r.options().windowSeconds(), r.absorbBoundMillis()));
        out.printf(Locale.ROOT, "(the bound: 2 x the lower of the reference's p99, %.1f ms, and the p99 of the %d windows before the kill,"
                + " %.1f ms; resolution one window)%n", r.reference().p99Millis(), PRE_KILL_WINDOWS, r.preKillP99Millis());
        Loss l = r.loss();
        out.printf(Locale.ROOT, "journal: %,d acknowledged turns, %d missing, %d doubled (%d unacknowledged turns are there once)%s%n",
                l.acknowledged(), l.missing(), l.doubled(), l.unacknowledgedHeld(), l.none() ? ": zero acknowledged loss" : ": LOSS");
    }

    private static String span(Phase p) {
        return String.format(Locale.ROOT, "%.1f–%.1f", p.fromSeconds(), p.toSeconds());
    }

    private static double ms(long micros) {
        return round(micros / 1000.0);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
