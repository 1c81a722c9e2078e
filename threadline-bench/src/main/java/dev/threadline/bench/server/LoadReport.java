package dev.threadline.bench.server;

import dev.threadline.bench.kit.SvgCharts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The load run's two SVG plots and its Markdown summary (the tables of docs/benchmarks.md). Stateless. */
final class LoadReport {
    static final List<String> FILES = List.of("latency-vs-load.svg", "hot-session.svg");

    private LoadReport() {}

    static void plots(LoadResults r, Path dir) throws IOException {
        List<SvgCharts.Curve> load = new ArrayList<>();
        String[] names = {"p50", "p99", "p99.9"};
        List<ToDoubleFunction<OpenLoop.Measurement>> pick = List.of(OpenLoop.Measurement::p50Millis,
                OpenLoop.Measurement::p99Millis, OpenLoop.Measurement::p999Millis);
        for (int k = 0; k < names.length; k++) {
            ToDoubleFunction<OpenLoop.Measurement> f = pick.get(k);
            load.add(new SvgCharts.Curve("HTTP " + names[k], points(r.levels(), l -> l.http(), f), k > 0, 0));
            load.add(new SvgCharts.Curve("in-process " + names[k], points(r.levels(), l -> l.inProcess(), f), k > 0, 1));
        }
        Files.writeString(dir.resolve(FILES.get(0)), SvgCharts.logLog(String.format(Locale.ROOT,
                "Turn latency from the intended start, by arrival rate (HTTP saturation %.1f turns/s)",
                r.saturation().httpRate()), "offered turns per second", "milliseconds", load));

        List<SvgCharts.Curve> hot = new ArrayList<>();
        hot.add(new SvgCharts.Curve("HTTP, hot session alone", percentiles(r.hot().http().alone()), false, 0));
        hot.add(new SvgCharts.Curve("HTTP, beside " + r.hot().quietSessions() + " quiet", percentiles(r.hot().http().beside()), true, 0));
        hot.add(new SvgCharts.Curve("in-process, hot session alone", percentiles(r.hot().inProcess().alone()), false, 1));
        hot.add(new SvgCharts.Curve("in-process, beside " + r.hot().quietSessions() + " quiet",
                percentiles(r.hot().inProcess().beside()), true, 1));
        hot.add(new SvgCharts.Curve("HTTP, the quiet sessions' turns", percentiles(r.hot().http().quiet()), false, 2));
        hot.add(new SvgCharts.Curve("in-process, the quiet sessions' turns", percentiles(r.hot().inProcess().quiet()), false, 3));
        Files.writeString(dir.resolve(FILES.get(1)), SvgCharts.logLog(String.format(Locale.ROOT,
                "One hot session at %.1f turns/s: latency by percentile (x: 2 = p50, 10 = p90, 100 = p99, 1000 = p99.9)",
                r.hot().rate()), "1 / (1 - percentile)", "milliseconds", hot));
    }

    private static List<double[]> points(List<LoadResults.Level> levels,
                                         java.util.function.Function<LoadResults.Level, OpenLoop.Measurement> who,
                                         ToDoubleFunction<OpenLoop.Measurement> y) {
        List<double[]> out = new ArrayList<>();
        for (LoadResults.Level l : levels) {
            double v = y.applyAsDouble(who.apply(l));
            if (v > 0) {
                out.add(new double[] {l.rate(), v});
            }
        }
        return out;
    }

    private static List<double[]> percentiles(OpenLoop.Measurement m) {
        List<double[]> out = new ArrayList<>();
        double[] ys = {m.p50Millis(), m.p90Millis(), m.p99Millis(), m.p999Millis()};
        double[] xs = {2, 10, 100, 1000};
        for (int i = 0; i < xs.length; i++) {
            if (ys[i] > 0) {
                out.add(new double[] {xs[i], ys[i]});
            }
        }
        return out;
    }

    static void print(LoadResults r, PrintStream out) {
        LoadResults.Saturation s = r.saturation();
        out.printf(Locale.ROOT, "server: %s; %d cpus; %s; run took %.0f s%n%n", r.server(), r.machine().cpus(), r.machine().jdk(),
                r.seconds());
        out.printf(Locale.ROOT, "saturation (highest arrival rate kept up with): HTTP %.1f turns/s, in-process %.1f turns/s%n%n",
                s.httpRate(), s.inProcessRate());
        out.println("| closed loop | turns/s | p50 ms | p99 ms | errors | machine load avg |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: |");
        for (OpenLoop.Measurement m : List.of(s.http(), s.inProcess(), s.httpOneSession(), s.inProcessOneSession())) {
            out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %d | %.1f |%n", m.name(), m.offeredPerSec(), m.p50Millis(), m.p99Millis(),
                    m.errorCount(), m.loadAverage());
        }
        out.println();
        out.println("| search step | offered turns/s | steady answers/s | p50 ms | p99 ms | errors | kept up | machine load avg |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
        for (List<OpenLoop.Measurement> steps : List.of(s.httpSearch(), s.inProcessSearch())) {
            for (OpenLoop.Measurement m : steps) {
                out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %d | %s | %.1f |%n", steps == s.httpSearch() ? "HTTP" : "in-process",
                        m.offeredPerSec(), m.steadyPerSec(), m.p50Millis(), m.p99Millis(), m.errorCount(), m.keptUp() ? "yes" : "no",
                        m.loadAverage());
            }
        }
        out.println();
        out.println("| load | offered turns/s | | achieved | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | errors | machine load avg |");
        out.println("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (LoadResults.Level l : r.levels()) {
            row(out, String.format(Locale.ROOT, "%.0f %%", l.fraction() * 100), l.rate(), "HTTP", l.http());
            row(out, "", l.rate(), "in-process", l.inProcess());
        }
        out.println();
        LoadResults.Hot h = r.hot();
        out.printf(Locale.ROOT, "hot session at %.1f turns/s; %d quiet sessions (seeded in %.1f s) trickling at %.1f turns/s%n%n",
                h.rate(), h.quietSessions(), h.seedSeconds(), h.trickleRate());
        out.println("| | | achieved | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | errors | heap after GC | RSS | machine load avg |");
        out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (LoadResults.HotRun run : List.of(h.http(), h.inProcess())) {
            String who = run == h.http() ? "HTTP" : "in-process";
            hotRow(out, who, "hot, alone", run.alone(), run.heapAloneBytes(), run.rssAloneBytes());
            hotRow(out, who, "hot, beside quiet", run.beside(), run.heapBesideBytes(), run.rssBesideBytes());
            hotRow(out, who, "quiet trickle", run.quiet(), -1, -1);
        }
        out.println();
        out.println("| idle streams | opened | failed | open all, s | heap after GC before → with | per stream | RSS before → with | per stream |");
        out.println("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |");
        for (LoadResults.StreamRun sr : List.of(r.streams().http(), r.streams().inProcess())) {
            out.printf(Locale.ROOT, "| %s | %d | %s | %.2f | %s → %s | %.1f KiB | %s → %s | %.1f KiB |%n",
                    sr == r.streams().http() ? "HTTP SSE" : "in-process awaitEvents", sr.opened(), sr.failed().isEmpty() ? "0" : sr.failed(),
                    sr.openSeconds(), mib(sr.heapBeforeBytes()), mib(sr.heapWithBytes()), sr.heapPerStreamBytes() / 1024,
                    mib(sr.rssBeforeBytes()), mib(sr.rssWithBytes()), sr.rssPerStreamBytes() / 1024);
        }
    }

    private static void row(PrintStream out, String load, double rate, String who, OpenLoop.Measurement m) {
        out.printf(Locale.ROOT, "| %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %.1f |%n", load, load.isEmpty() ? "" :
                String.format(Locale.ROOT, "%.1f", rate), who, m.achievedPerSec(), m.p50Millis(), m.p90Millis(), m.p99Millis(),
                m.p999Millis(), m.maxMillis(), errors(m), m.loadAverage());
    }

    private static void hotRow(PrintStream out, String who, String what, OpenLoop.Measurement m, long heap, long rss) {
        out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s | %s | %.1f |%n", who, what,
                m.achievedPerSec(), m.p50Millis(), m.p90Millis(), m.p99Millis(), m.p999Millis(), m.maxMillis(), errors(m),
                heap < 0 ? "" : mib(heap), rss < 0 ? "" : mib(rss), m.loadAverage());
    }

    private static String errors(OpenLoop.Measurement m) {
        return m.errorCount() == 0 ? "0 of " + m.sent() : m.errorCount() + " of " + m.sent() + " " + m.errors();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
