package dev.threadline.bench;

import dev.threadline.bench.kit.Contender;
import dev.threadline.bench.kit.SqliteFiles;
import dev.threadline.bench.kit.SvgPlot;
import dev.threadline.bench.alt.AdkContender;
import dev.threadline.bench.alt.LangChain4jContender;
import dev.threadline.bench.alt.LangGraph4jContender;
import dev.threadline.bench.alt.SpringAiContender;
import dev.threadline.bench.alt.ThreadlineChatMemoryContender;
import dev.threadline.bench.alt.ThreadlineSaverContender;
import dev.threadline.bench.alt.ThreadlineSpringAiContender;
import dev.threadline.core.json.Json;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code threadline bench frameworks}: each framework's own store beside the same framework on
 * Threadline through our adapter, on the same SQLite settings (WAL, {@code synchronous=FULL}), measured
 * the way the main run measures its curves ({@link CurveRun}: WAL growth per step, step latency, cold
 * load) at 1,000 and 10,000 messages. One fresh SQLite file per contender.
 */
final class FrameworksBench {
    static final List<String> FILES = List.of("frameworks-bytes-per-step.svg", "frameworks-step-latency.svg");

    private FrameworksBench() {}

    /**
     * The figures of one run.
     *
     * @param machine    where it ran
     * @param command    the command line
     * @param frameworks per framework, the names of its contenders (its own store first)
     * @param contenders who was measured, their durability and what they cannot do
     * @param curves     per contender and history length
     */
    record FrameworkResults(Results.Machine machine, String command, List<Framework> frameworks,
                            List<Results.ContenderInfo> contenders, List<CurvePoint> curves) {}

    /** A framework and its contenders, its own store first. */
    record Framework(String name, List<String> contenders) {}

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "threadline-bench");
        Path outDir = Path.of("bench-results");
        String size = "full";
        boolean progress = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(value(args, ++i, "--dir"));
                case "--out" -> outDir = Path.of(value(args, ++i, "--out"));
                case "--quick" -> size = "quick";
                case "--smoke" -> size = "smoke";
                case "--no-progress" -> progress = false;
                default -> {
                    err.println("threadline bench frameworks: unknown option '" + args[i] + "' (try threadline bench --help)");
                    return 2;
                }
            }
        }
        outDir = outDir.toAbsolutePath();
        dir = dir.toAbsolutePath();
        Files.createDirectories(dir);
        BenchConfig config = switch (size) { // only the curve's sizes matter here
            case "quick" -> new BenchConfig(null, outDir, List.of(1_000, 10_000), 50, 4_000, List.of(), 0, 0, 3, true);
            case "smoke" -> new BenchConfig(null, outDir, List.of(8, 40), 4, 1_000, List.of(), 0, 0, 1, true);
            // 120 steps: LangGraph4j on Threadline writes ~29 KB per step, and Threadline's SQLite store checkpoints its
            // WAL at 4 MB; more steps would let a checkpoint run inside the measured window (its bytes then go unmeasured)
            default -> new BenchConfig(null, outDir, List.of(1_000, 10_000), 120, 15_000, List.of(), 0, 0, 7, true);
        };
        Progress bar = new Progress(err, progress);
        List<Framework> frameworks = new ArrayList<>();
        List<Results.ContenderInfo> infos = new ArrayList<>();
        List<CurvePoint> curves = new ArrayList<>();
        CurveRun curveRun = new CurveRun(config, bar);
        for (String framework : List.of("LangChain4j", "Spring AI", "LangGraph4j", "Google ADK")) {
            List<String> names = new ArrayList<>();
            for (Contender c : contenders(framework, dir)) {
                try (c) {
                    names.add(c.name());
                    infos.add(new Results.ContenderInfo(c.name(), c.durability(), c.cannot()));
                    curves.addAll(curveRun.run(c));
                }
            }
            frameworks.add(new Framework(framework, names));
        }
        bar.finishLine();
        FrameworkResults results = new FrameworkResults(Results.Machine.here(), "threadline bench frameworks "
                + String.join(" ", args), frameworks, infos, curves);
        Files.createDirectories(outDir);
        Files.writeString(outDir.resolve("frameworks-results.json"),
                Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(results));
        plots(results, outDir);
        print(results, out);
        out.printf(Locale.ROOT, "%nresults: %s (and %s)%n", outDir.resolve("frameworks-results.json"), String.join(", ", FILES));
        return 0;
    }

    /** The framework's own store first, then the same framework on Threadline; each on a fresh file in {@code dir}. */
    private static List<Contender> contenders(String framework, Path dir) throws Exception {
        List<Contender> out = new ArrayList<>();
        switch (framework) {
            case "LangChain4j" -> {
                out.add(new LangChain4jContender(fresh(dir, "fw-langchain4j.db")));
                out.add(new ThreadlineChatMemoryContender(fresh(dir, "fw-tl-langchain4j-memory.db"), false));
                out.add(new ThreadlineChatMemoryContender(fresh(dir, "fw-tl-langchain4j-store.db"), true));
            }
            case "Spring AI" -> {
                out.add(new SpringAiContender(fresh(dir, "fw-springai.db")));
                out.add(new ThreadlineSpringAiContender(fresh(dir, "fw-tl-springai.db")));
            }
            case "LangGraph4j" -> {
                out.add(new LangGraph4jContender());
                out.add(new ThreadlineSaverContender(fresh(dir, "fw-tl-langgraph4j.db")));
            }
            default -> {
                out.add(new AdkContender(null));
                out.add(new AdkContender(fresh(dir, "fw-tl-adk.db")));
            }
        }
        return out;
    }

    /** Opened lazily would be nicer, but each contender opens its file at once: they are made one framework at a time. */
    private static Path fresh(Path dir, String name) throws Exception {
        Path f = dir.resolve(name);
        SqliteFiles.delete(f);
        return f;
    }

    static void print(FrameworkResults r, PrintStream out) {
        out.println();
        out.println("| framework | contender | messages | steps | WAL bytes/step | × own | median step ms (p99) | × own | cold load ms | stored bytes |");
        out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Framework f : r.frameworks()) {
            String own = f.contenders().getFirst();
            for (String name : f.contenders()) {
                for (CurvePoint p : r.curves()) {
                    if (!p.contender().equals(name)) {
                        continue;
                    }
                    CurvePoint base = r.curves().stream().filter(q -> q.contender().equals(own) && q.historyLength() == p.historyLength())
                            .findFirst().orElse(p);
                    out.printf(Locale.ROOT, "| %s | %s | %,d | %d | %s | %s | %.2f (%.1f) | %.2f | %s | %,d |%n", f.name(), name,
                            p.historyLength(), p.steps(), num(p.walBytesPerStep(), "%,.0f"),
                            p.walBytesPerStep() == null || base.walBytesPerStep() == null ? "n/a"
                                    : String.format(Locale.ROOT, "%.3f", p.walBytesPerStep() / base.walBytesPerStep()),
                            p.medianMicros() / 1e3, p.p99Micros() / 1e3, p.medianMicros() / base.medianMicros(),
                            num(p.coldLoadMillis(), "%,.1f"), p.serializedBytes());
                }
            }
        }
    }

    private static void plots(FrameworkResults r, Path dir) throws Exception {
        List<SvgPlot.Series> bytes = new ArrayList<>();
        List<SvgPlot.Series> latency = new ArrayList<>();
        int color = 0;
        for (Framework f : r.frameworks()) {
            for (String name : f.contenders()) {
                boolean own = name.equals(f.contenders().getFirst());
                List<double[]> b = new ArrayList<>();
                List<double[]> t = new ArrayList<>();
                for (CurvePoint p : r.curves()) {
                    if (p.contender().equals(name)) {
                        if (p.walBytesPerStep() != null && p.walBytesPerStep() > 0) {
                            b.add(new double[] {p.historyLength(), p.walBytesPerStep()});
                        }
                        t.add(new double[] {p.historyLength(), p.medianMicros()});
                    }
                }
                bytes.add(new SvgPlot.Series(name, b, !own, color % 7));
                latency.add(new SvgPlot.Series(name, t, !own, color % 7));
            }
            color++;
        }
        Files.writeString(dir.resolve(FILES.get(0)), SvgPlot.render("Bytes written per step (SQLite WAL growth): each framework's"
                + " own store (solid) and on Threadline (dashed)", "messages in the session", "bytes per step", bytes));
        Files.writeString(dir.resolve(FILES.get(1)), SvgPlot.render("Median latency of one step: own store (solid), on Threadline"
                + " (dashed)", "messages in the session", "microseconds", latency));
    }

    private static String num(Double v, String format) {
        return v == null ? "n/a" : String.format(Locale.ROOT, format, v);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
