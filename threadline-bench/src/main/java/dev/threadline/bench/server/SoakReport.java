package dev.threadline.bench.server;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The figures of one {@link Soak} run and their Markdown: a row per window as issue 39's table, then the
 * first minutes against the last (turns/s, p50 and the server's CPU per turn; the span is five minutes,
 * or a third of a shorter run so the two never overlap), the live heap after a full GC at the start and
 * the end, and whether every acknowledged turn is in its session's journal. Thread-safe (values).
 */
final class SoakReport {
    private SoakReport() {}

    /**
     * One window.
     *
     * @param fromMinute          when it began, minutes into the run
     * @param toMinute            when it ended
     * @param messagesPerSession  the messages a session held at its end, on average (four per acknowledged turn)
     * @param turns               turns answered in it
     * @param turnsPerSec         of them per second
     * @param p50Millis           their latency, median
     * @param p99Millis           99th percentile
     * @param cpuMillis           the server's CPU time over the window
     * @param cpuMillisPerTurn    of it per turn
     * @param rssBytes            the server's resident memory at its end
     * @param errors              turns that failed in it
     * @param loadAverage         the machine's one-minute load average at its end (other work on shared cores), or -1
     */
    record Window(double fromMinute, double toMinute, double messagesPerSession, long turns, double turnsPerSec, double p50Millis,
                  double p99Millis, double cpuMillis, double cpuMillisPerTurn, long rssBytes, long errors,
                  double loadAverage) {
        static Window of(double fromMinute, double toMinute, double messagesPerSession, Histogram h, double secs, double cpuMillis,
                         long rss, long errors) {
            long n = h.getTotalCount();
            return new Window(fromMinute, toMinute, round(messagesPerSession), n, round(n / secs),
                    round(h.getValueAtPercentile(50) / 1000.0), round(h.getValueAtPercentile(99) / 1000.0), round(cpuMillis),
                    n == 0 ? 0 : round(cpuMillis / n), rss, errors,
                    round(java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        }

        String line() {
            return String.format(Locale.ROOT, "minute %.1f: ~%,.0f messages/session, %.1f turns/s, p50 %.1f ms, p99 %.1f ms,"
                    + " CPU %.2f ms/turn, RSS %.0f MB, errors %d, load %.2f", toMinute, messagesPerSession, turnsPerSec, p50Millis,
                    p99Millis, cpuMillisPerTurn, rssBytes / 1e6, errors, loadAverage);
        }
    }

    /** Several windows together: turns/s, p50 of all their turns, the server's CPU per turn. */
    record Span(double fromMinute, double toMinute, long turns, double turnsPerSec, double p50Millis, double p99Millis,
                double cpuMillisPerTurn) {
        static Span of(List<Window> windows, List<Histogram> hists, double from, double to) {
            Histogram all = new Histogram(3);
            double secs = 0;
            double cpu = 0;
            double lo = Double.MAX_VALUE;
            double hi = 0;
            for (int i = 0; i < windows.size(); i++) {
                Window w = windows.get(i);
                if (w.fromMinute() >= from - 1e-9 && w.toMinute() <= to + 1e-9) {
                    all.add(hists.get(i));
                    secs += (w.toMinute() - w.fromMinute()) * 60;
                    cpu += w.cpuMillis();
                    lo = Math.min(lo, w.fromMinute());
                    hi = Math.max(hi, w.toMinute());
                }
            }
            long n = all.getTotalCount();
            if (n == 0) {
                return new Span(from, to, 0, 0, 0, 0, 0);
            }
            return new Span(round(lo), round(hi), n, round(n / secs), round(all.getValueAtPercentile(50) / 1000.0),
                    round(all.getValueAtPercentile(99) / 1000.0), round(cpu / n));
        }
    }

    /** The whole run. */
    record Results(String command, String server, Soak.Options options, List<Window> windows, Span first, Span last,
                   double lastOverFirstTurnsPerSec, double lastOverFirstP50, double lastOverFirstCpuPerTurn, long heapStartBytes,
                   long heapEndBytes, long rssEndBytes, long storeBytes, long turnsAcknowledged, long errors,
                   boolean journalHoldsTurns) {
        static Results of(String command, String server, Soak.Options o, List<Window> windows, List<Histogram> hists, long heapStart,
                          long heapEnd, long rssEnd, long storeBytes, long acked, long errors, boolean holds) {
            double total = windows.getLast().toMinute();
            double span = Math.min(5, total / 3);
            // a window counts in a span when it lies wholly inside; a span shorter than a window takes the first (last) one
            double firstTo = Math.max(span, windows.getFirst().toMinute());
            double lastFrom = Math.min(total - span, windows.getLast().fromMinute());
            Span first = Span.of(windows, hists, 0, firstTo);
            Span last = Span.of(windows, hists, lastFrom, total);
            return new Results(command, server, o, windows, first, last, ratio(last.turnsPerSec(), first.turnsPerSec()),
                    ratio(last.p50Millis(), first.p50Millis()), ratio(last.cpuMillisPerTurn(), first.cpuMillisPerTurn()), heapStart,
                    heapEnd, rssEnd, storeBytes, acked, errors, holds);
        }
    }

    static void print(Results r, PrintStream out) {
        Soak.Options o = r.options();
        out.printf(Locale.ROOT, "### soak: %s, %d sessions, %d clients (closed loop), scripted model, JSON turns, %.1f min"
                + " after %.0f s of warm-up%n%n", r.server(), o.sessions(), o.clients(), o.minutes(), o.warmUpSeconds());
        out.println("| minute | messages per session (about) | turns/s | p50 ms | p99 ms | server CPU ms/turn | server RSS MB | errors | load average |");
        out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        String minute = o.windowSeconds() % 60 == 0 ? "%.0f" : "%.2f";
        for (Window w : r.windows()) {
            out.printf(Locale.ROOT, "| " + minute + " | %,.0f | %.1f | %.1f | %.1f | %.2f | %.0f | %d | %.2f |%n", w.toMinute(),
                    w.messagesPerSession(), w.turnsPerSec(), w.p50Millis(), w.p99Millis(), w.cpuMillisPerTurn(), w.rssBytes() / 1e6,
                    w.errors(), w.loadAverage());
        }
        out.println();
        Span f = r.first();
        Span l = r.last();
        out.printf(Locale.ROOT, "minutes %.1f–%.1f against %.1f–%.1f: turns/s %.1f → %.1f (%.2f×), p50 %.1f → %.1f ms (%.2f×),"
                        + " server CPU %.2f → %.2f ms/turn (%.2f×)%n", f.fromMinute(), f.toMinute(), l.fromMinute(), l.toMinute(),
                f.turnsPerSec(), l.turnsPerSec(), r.lastOverFirstTurnsPerSec(), f.p50Millis(), l.p50Millis(), r.lastOverFirstP50(),
                f.cpuMillisPerTurn(), l.cpuMillisPerTurn(), r.lastOverFirstCpuPerTurn());
        out.printf(Locale.ROOT, "live heap after a full GC: %.0f MB at the start, %.0f MB at the end; RSS at the end %.0f MB;"
                + " store %.0f MB%n", r.heapStartBytes() / 1e6, r.heapEndBytes() / 1e6, r.rssEndBytes() / 1e6, r.storeBytes() / 1e6);
        out.printf(Locale.ROOT, "%,d turns acknowledged (the warm-up's too), %d errors; journals: %s%n", r.turnsAcknowledged(), r.errors(),
                r.journalHoldsTurns() ? "every acknowledged turn is in its session's journal" : "A SESSION MISSES ACKNOWLEDGED TURNS");
    }

    private static double ratio(double a, double b) {
        return b == 0 ? 0 : round(a / b);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
