package dev.threadline.bench;

import dev.threadline.bench.kit.SvgPlot;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The shared-store run's tables (Markdown, as docs/benchmarks.md shows them) and its three plots. */
final class SharedReport {
    static final List<String> FILES = List.of("shared-bytes-per-step.svg", "shared-step-latency.svg", "shared-throughput.svg");

    private SharedReport() {}

    static void print(SharedResults r, PrintStream out) {
        for (SharedResults.Store s : r.stores()) {
            out.println();
            out.println("### " + s.kind());
            out.println();
            out.println("Server: " + s.server() + ". Store: " + s.connections() + ". Raw floor: " + s.rawFloor()
                    + ". Written bytes: " + s.writtenBytesMethod() + ". Held bytes: " + s.heldBytesMethod()
                    + String.format(Locale.ROOT, ". This store's run: %.0f s, load average %.1f at its start and %.1f at its end"
                    + " (2 cores, shared). Steps decided again after a reported conflict although their first attempt"
                    + " had been committed: %d. Warm-up: %s%s. Before each length's timed rounds, untimed steps again"
                    + " until the JIT was quiet, then JIT compiling during the timed rounds: %s.",
                    s.seconds(), s.loadBefore(), s.loadAfter(), s.redecidedAfterCommit(), s.warmUp(),
                    s.variantWarmUp() == null ? "" : "; the variant's, " + s.variantWarmUp(), jit(s.curves())));
            out.println();
            out.println("| messages | steps (bytes, timed) | written B/step | raw written B/op | held B/step | raw held B/op"
                    + " | median step ms (p99) | raw median ms (p99) | step / raw | cold load ms | JSON doc read ms |");
            out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            for (SharedResults.Point p : s.curves()) {
                out.printf(Locale.ROOT, "| %,d | %d, %d | %s | %s | %s | %s | %.2f (%.1f) | %.2f (%.1f) | %.2f | %s | %s |%n",
                        p.historyLength(), p.steps(), p.timedSteps(), num(p.writtenBytesPerStep(), "%,.0f"), num(p.rawWrittenBytesPerOp(), "%,.0f"),
                        num(p.heldBytesPerStep(), "%,.0f"), num(p.rawHeldBytesPerOp(), "%,.0f"), p.medianMicros() / 1e3,
                        p.p99Micros() / 1e3, p.rawMedianMicros() / 1e3, p.rawP99Micros() / 1e3, p.medianMicros() / p.rawMedianMicros(),
                        num(p.coldLoadMillis(), "%,.1f"), num(p.documentReadMillis(), "%,.1f"));
            }
            if (s.variant() != null) {
                out.println();
                out.print("Median step ms (p99) with " + s.variant() + ", timed in the same rounds:");
                for (SharedResults.Point p : s.curves()) {
                    out.printf(Locale.ROOT, " %,d messages %s (%s), %s× raw;", p.historyLength(), num(ms(p.variantMedianMicros()), "%.2f"),
                            num(ms(p.variantP99Micros()), "%.1f"), p.variantMedianMicros() == null ? "n/a"
                                    : String.format(Locale.ROOT, "%.2f", p.variantMedianMicros() / p.rawMedianMicros()));
                }
                out.println();
            }
            out.println();
            out.println("| configuration | sessions | steps per round | steps/s (median) | raw floor writes/s, 1 connection (median)"
                    + " | ratio (median of rounds) | rounds: steps/s vs raw |");
            out.println("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
            for (SharedResults.Rate t : s.throughput()) {
                rate(out, "defaults", t);
            }
            for (SharedResults.Rate t : s.variantThroughput()) {
                rate(out, s.variant().replaceAll(" \\(.*", ""), t);
            }
            out.println();
            out.println("| target (reported, not enforced) | measured | bound | met |");
            out.println("| --- | ---: | ---: | --- |");
            for (Results.Target t : s.targets()) {
                out.printf(Locale.ROOT, "| %s | %s | %s %.2f | %s |%n", t.what(), num(t.measured(), "%.2f"), t.comparison(), t.bound(),
                        t.met() == null ? "n/a" : t.met() ? "yes" : "**no**");
            }
        }
    }

    /** "2,000 steps then 0, 2,500 steps then 4 ... ms" for the lengths in order, or "not read". */
    private static String jit(List<SharedResults.Point> curves) {
        List<String> each = new ArrayList<>();
        for (SharedResults.Point p : curves) {
            if (p.jitMillis() == null) {
                return "not read";
            }
            each.add(String.format(Locale.ROOT, "%,d steps then %,d", p.warmUpSteps(), p.jitMillis()));
        }
        return each.isEmpty() ? "none" : each.size() == 1 ? each.get(0) + " ms"
                : String.join(", ", each.subList(0, each.size() - 1)) + " and " + each.get(each.size() - 1) + " ms";
    }

    private static void rate(PrintStream out, String configuration, SharedResults.Rate t) {
        StringBuilder rounds = new StringBuilder();
        for (int i = 0; i < t.rounds().size(); i++) {
            rounds.append(i == 0 ? "" : "; ").append(String.format(Locale.ROOT, "%,.0f vs %,.0f", t.rounds().get(i), t.rawAround().get(i)));
        }
        out.printf(Locale.ROOT, "| %s | %d | %,d | %,.0f | %,.0f | %.2f | %s |%n", configuration, t.sessions(), t.stepsPerRound(),
                t.stepsPerSecond(), t.rawPerSecond(), t.ratio(), rounds);
    }

    static void plots(SharedResults r, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<SvgPlot.Series> bytes = new ArrayList<>();
        List<SvgPlot.Series> latency = new ArrayList<>();
        List<SvgPlot.Series> rates = new ArrayList<>();
        int color = 0;
        for (SharedResults.Store s : r.stores()) {
            bytes.add(new SvgPlot.Series("Threadline on " + s.kind(), points(s, SharedResults.Point::writtenBytesPerStep), false, color));
            bytes.add(new SvgPlot.Series("raw floor on " + s.kind(), points(s, SharedResults.Point::rawWrittenBytesPerOp), true, color));
            latency.add(new SvgPlot.Series("Threadline on " + s.kind() + " (median)", points(s, p -> p.medianMicros()), false, color));
            latency.add(new SvgPlot.Series("raw floor on " + s.kind() + " (median)", points(s, p -> p.rawMedianMicros()), true, color));
            if (s.variant() != null) {
                latency.add(new SvgPlot.Series("Threadline on " + s.kind() + ", " + s.variant().replaceAll(" \\(.*", "") + " (median)",
                        points(s, SharedResults.Point::variantMedianMicros), false, color + 1));
            }
            rates.add(new SvgPlot.Series("Threadline on " + s.kind(), s.throughput().stream()
                    .map(t -> new double[] {t.sessions(), t.stepsPerSecond()}).toList(), false, color));
            rates.add(new SvgPlot.Series("raw floor on " + s.kind() + " (1 connection, around each point)", s.throughput().stream()
                    .map(t -> new double[] {t.sessions(), t.rawPerSecond()}).toList(), true, color));
            if (s.variant() != null && !s.variantThroughput().isEmpty()) {
                color++;
                rates.add(new SvgPlot.Series("Threadline on " + s.kind() + ", " + s.variant().replaceAll(" \\(.*", ""),
                        s.variantThroughput().stream().map(t -> new double[] {t.sessions(), t.stepsPerSecond()}).toList(), false, color));
            }
            color++;
        }
        Files.writeString(dir.resolve(FILES.get(0)), SvgPlot.render("Bytes written durably per step (WAL / AOF growth)",
                "messages in the session", "bytes per step", bytes));
        Files.writeString(dir.resolve(FILES.get(1)), SvgPlot.render("Latency of one durable step (median)",
                "messages in the session", "microseconds", latency));
        Files.writeString(dir.resolve(FILES.get(2)), SvgPlot.render("Durable steps per second", "concurrent sessions",
                "steps per second", rates));
    }

    private static List<double[]> points(SharedResults.Store s, Function<SharedResults.Point, Double> y) {
        List<double[]> out = new ArrayList<>();
        for (SharedResults.Point p : s.curves()) {
            Double v = y.apply(p);
            if (v != null && v > 0) {
                out.add(new double[] {p.historyLength(), v});
            }
        }
        return out;
    }

    private static Double ms(Double micros) {
        return micros == null ? null : micros / 1e3;
    }

    private static String num(Double v, String format) {
        return v == null ? "n/a" : String.format(Locale.ROOT, format, v);
    }
}
