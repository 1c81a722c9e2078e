package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import dev.threadline.bench.kit.Contender;
import dev.threadline.bench.kit.SqliteFiles;
import dev.threadline.bench.alt.LangChain4jContender;
import dev.threadline.bench.alt.LangGraph4jContender;
import dev.threadline.bench.alt.SpringAiContender;
import dev.threadline.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole-run benchmark: every contender through the same curves, the raw limits, the throughput
 * runs, then results.json and the plots. One run, one machine, so every figure can be set beside the
 * others.
 */
public final class WholeRun {
    private final BenchConfig config;
    private final Progress progress;

    public WholeRun(BenchConfig config, Progress progress) {
        this.config = config;
        this.progress = progress;
    }

    public Results run(String command) throws Exception {
        Files.createDirectories(config.out());
        Path altDir = config.store().isSqlite() ? config.store().file().getParent() : Files.createTempDirectory("threadline-bench");
        Files.createDirectories(altDir);
        StoreUrl store = config.store();
        if (store.isSqlite()) {
            SqliteFiles.delete(store.fileFor("curves"));
        }
        List<Contender> contenders = new ArrayList<>();
        ThreadlineContender threadline = new ThreadlineContender(store, "curves", false);
        contenders.add(threadline);
        if (config.alternatives()) {
            Path spring = altDir.resolve("bench-springai.db");
            Path lc4j = altDir.resolve("bench-langchain4j.db");
            SqliteFiles.delete(spring);
            SqliteFiles.delete(lc4j);
            contenders.add(new LangChain4jContender(lc4j));
            contenders.add(new SpringAiContender(spring));
            contenders.add(new LangGraph4jContender());
        }
        try {
            List<CurvePoint> curves = new ArrayList<>();
            CurveRun curveRun = new CurveRun(config, progress);
            for (Contender c : contenders) {
                curves.addAll(curveRun.run(c));
            }
            List<Results.RawRead> reads = new ArrayList<>();
            for (CurvePoint p : curves.subList(0, config.historyLengths().size())) {
                if (p.rawReadMillis() != null) {
                    reads.add(new Results.RawRead(p.historyLength(), p.rawReadMillis()));
                }
            }
            Results.Raw raw;
            if (store.isSqlite()) {
                SqliteFiles.delete(store.fileFor("mailbox"));
                try (ThreadlineContender mailbox = new ThreadlineContender(store, "mailbox", true)) {
                    raw = LimitRun.run(config, threadline, mailbox, store.fileFor("raw"), reads, progress);
                }
            } else {
                raw = new Results.Raw(null, List.of(), null, List.of(), null, List.of(), reads, List.of());
            }
            List<ThroughputPoint> throughput = new ArrayList<>();
            List<Double> rawBeside = new ArrayList<>();
            ThroughputRun tp = new ThroughputRun(config, progress);
            List<Contender> writers = new ArrayList<>(contenders);
            if (store.isSqlite()) { // the same runtime with group commit off: what group commit buys
                SqliteFiles.delete(store.fileFor("no-group-commit"));
                writers.add(1, new ThreadlineContender(store, "no-group-commit", false, false));
            }
            try (Connection rawTarget = store.isSqlite() ? RawLimits.openInsertTarget(store.fileFor("raw-beside")) : null) {
                for (int c : config.concurrency()) {
                    throughput.add(tp.turns(c));
                    for (Contender contender : writers) {
                        boolean paired = rawTarget != null && contender == threadline; // raw rounds right before and after it
                        double before = paired ? RawLimits.insertsPerSecond(rawTarget, "before-" + c, config.rawInserts()) : 0;
                        throughput.add(tp.steps(contender, c));
                        if (paired) {
                            double after = RawLimits.insertsPerSecond(rawTarget, "after-" + c, config.rawInserts());
                            rawBeside.add((before + after) / 2);
                        }
                    }
                }
            } finally {
                if (writers.size() > contenders.size()) {
                    writers.get(1).close();
                }
            }
            raw = raw.withInsertsBesideThroughput(rawBeside);
            progress.finishLine();
            Results results = new Results(Results.Machine.here(), command, config,
                    contenders.stream().map(c -> new Results.ContenderInfo(c.name(), c.durability(), c.cannot())).toList(),
                    curves, throughput, raw, Targets.of(threadline.name(), curves, throughput, raw));
            Files.writeString(config.out().resolve("results.json"),
                    Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(results));
            Plots.write(results, config.out());
            return results;
        } finally {
            for (Contender c : contenders) {
                c.close();
            }
        }
    }
}
