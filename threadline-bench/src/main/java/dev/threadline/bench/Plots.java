package dev.threadline.bench;

import dev.threadline.bench.kit.SvgPlot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Writes the five SVG plots of a run: bytes per step, step latency, cold load, heap, throughput. */
final class Plots {
    static final List<String> FILES = List.of("bytes-per-step.svg", "step-latency.svg", "cold-load.svg",
            "heap-per-session.svg", "throughput.svg");

    private Plots() {}

    static void write(Results r, Path dir) throws IOException {
        Files.createDirectories(dir);
        Set<String> names = new LinkedHashSet<>();
        r.curves().forEach(p -> names.add(p.contender()));

        List<SvgPlot.Series> bytes = perContender(r, names, p -> p.walBytesPerStep(), "");
        save(dir, FILES.get(0), SvgPlot.render("Bytes written per step (growth of the SQLite WAL)",
                "messages in the session", "bytes per step", bytes));

        List<SvgPlot.Series> latency = new ArrayList<>();
        int color = 0;
        for (String n : names) {
            latency.add(new SvgPlot.Series(n + " median", points(r, n, p -> p.medianMicros()), false, color));
            latency.add(new SvgPlot.Series(n + " p99", points(r, n, p -> p.p99Micros()), true, color++));
        }
        save(dir, FILES.get(1), SvgPlot.render("Latency of one durable step", "messages in the session",
                "microseconds", latency));

        List<SvgPlot.Series> load = perContender(r, names, p -> p.coldLoadMillis(), "");
        load.add(new SvgPlot.Series("raw: plain JDBC select + Jackson parse", r.raw().readAndParse().stream()
                .map(x -> new double[] {x.historyLength(), x.millis()}).toList(), true));
        save(dir, FILES.get(2), SvgPlot.render("Cold load of a session (new runtime, first state)",
                "messages in the session", "milliseconds", load));

        List<SvgPlot.Series> heap = perContender(r, names, p -> p.heapBytes() == null ? null : p.heapBytes().doubleValue(), "");
        String first = names.iterator().next();
        heap.add(new SvgPlot.Series(first + ": serialized size", points(r, first, p -> (double) p.serializedBytes()), true));
        save(dir, FILES.get(3), SvgPlot.render("Heap held per session (JOL)", "messages in the session", "bytes", heap));

        Set<String> tNames = new LinkedHashSet<>();
        r.throughput().forEach(p -> tNames.add(p.contender()));
        List<SvgPlot.Series> tp = new ArrayList<>();
        for (String n : tNames) {
            tp.add(new SvgPlot.Series(n, r.throughput().stream().filter(p -> p.contender().equals(n))
                    .map(p -> new double[] {p.concurrency(), p.stepsPerSecond()}).toList(), false));
        }
        List<Double> beside = r.raw().insertsBesideThroughput();
        if (beside != null && beside.size() == r.config().concurrency().size()) {
            List<double[]> pts = new ArrayList<>();
            for (int i = 0; i < beside.size(); i++) {
                pts.add(new double[] {r.config().concurrency().get(i), beside.get(i)});
            }
            tp.add(new SvgPlot.Series("raw limit: 1 insert + commit per step (1 connection, measured around Threadline)", pts, true));
        }
        save(dir, FILES.get(4), SvgPlot.render("Durable steps per second", "concurrent sessions", "steps per second", tp));
    }

    private static List<SvgPlot.Series> perContender(Results r, Set<String> names, Function<CurvePoint, Double> y,
                                                     String suffix) {
        List<SvgPlot.Series> out = new ArrayList<>();
        for (String n : names) {
            out.add(new SvgPlot.Series(n + suffix, points(r, n, y), false));
        }
        return out;
    }

    private static List<double[]> points(Results r, String name, Function<CurvePoint, Double> y) {
        List<double[]> out = new ArrayList<>();
        for (CurvePoint p : r.curves()) {
            Double v = p.contender().equals(name) ? y.apply(p) : null;
            if (v != null && v > 0) {
                out.add(new double[] {p.historyLength(), v});
            }
        }
        return out;
    }

    private static void save(Path dir, String name, String svg) throws IOException {
        Files.writeString(dir.resolve(name), svg);
    }
}
