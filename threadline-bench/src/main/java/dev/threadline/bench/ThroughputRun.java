package dev.threadline.bench;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.bench.kit.SqliteFiles;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.skill.builtin.Builtins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput with 1, 16, 256 ... sessions at once, one virtual thread each: whole turns with skill
 * calls through {@code Session.submit} (scripted model, built-in skills), and single-message steps
 * on every contender.
 */
final class ThroughputRun {
    private final BenchConfig config;
    private final Progress progress;

    ThroughputRun(BenchConfig config, Progress progress) {
        this.config = config;
        this.progress = progress;
    }

    /**
     * Turns through the public API: N sessions x M turns, each turn a calculate or a note skill call
     * (M grows for small N so that every point counts at least twice as many steps as a raw-limit round).
     */
    ThroughputPoint turns(int concurrency) throws Exception {
        Path workspace = Files.createTempDirectory("threadline-bench-ws");
        String part = "turns-" + concurrency;
        if (config.store().isSqlite()) {
            SqliteFiles.delete(config.store().fileFor(part));
        }
        try (Threadline tl = Threadline.builder().store(config.store().open(part)).model(ScriptedModel.demo())
                .skills(Builtins.all(workspace)).build()) {
            List<Session> sessions = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                sessions.add(tl.defaultTenant().create("t" + i, SessionConfig.DEFAULT));
            }
            AtomicLong steps = new AtomicLong();
            tl.defaultTenant().addListener((id, events, state) -> steps.incrementAndGet());
            int turns = Math.max(config.turnsPerSession(), (2 * config.rawInserts() / 4 + concurrency - 1) / concurrency);
            progress.phase("Threadline turns: " + concurrency + " sessions", (long) concurrency * turns);
            long nanos = parallel(concurrency, i -> {
                Session s = sessions.get(i);
                for (int t = 0; t < turns; t++) {
                    s.submit(t % 2 == 0 ? "what is (" + (i + t) + "+3)*7" : "note item " + t);
                    progress.advance(1);
                }
            });
            return ThroughputPoint.of("Threadline turns (submit)", concurrency, steps.get(), nanos);
        }
    }

    /** Single-message steps on a contender: N fresh sessions x (turns x 4 messages). */
    ThroughputPoint steps(Contender c, int concurrency) throws Exception {
        int perSession = 4 * Math.max(config.turnsPerSession(), (2 * config.rawInserts() / 4 + concurrency - 1) / concurrency);
        for (int i = 0; i < concurrency; i++) {
            c.prefill("p" + concurrency + "-" + i, List.of());
        }
        progress.phase(c.name() + ": " + concurrency + " sessions", (long) concurrency * perSession);
        long nanos = parallel(concurrency, i -> {
            for (int k = 0; k < perSession; k++) {
                c.step("p" + concurrency + "-" + i, BenchMessage.at(k));
                progress.advance(1);
            }
        });
        return ThroughputPoint.of(c.name(), concurrency, (long) concurrency * perSession, nanos);
    }

    /** The body of one session. */
    interface Body {
        void run(int index) throws Exception;
    }

    /** Runs {@code n} bodies on virtual threads at once; returns the wall time; rethrows the first failure. */
    static long parallel(int n, Body body) throws Exception {
        List<Thread> threads = new ArrayList<>();
        Exception[] failure = new Exception[1];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            int index = i;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    body.run(index);
                } catch (Exception e) {
                    synchronized (failure) {
                        failure[0] = failure[0] == null ? e : failure[0];
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long nanos = System.nanoTime() - t0;
        if (failure[0] != null) {
            throw failure[0];
        }
        return nanos;
    }
}
