package dev.threadline.bench.server;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.testkit.RawSteps;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The hot-session phase of {@code serve-load}: one session driven at a fixed rate, first alone, then
 * beside {@link LoadConfig#quietSessions} quiet ones (seeded through the Java API before the server
 * starts) that trickle, over HTTP and in-process alike. Not thread-safe: one run.
 */
final class HotSession {
    private final LoadRun run;
    private final LoadConfig config;

    HotSession(LoadRun run) {
        this.run = run;
        this.config = run.config;
    }

    /** The hot session alone, then beside the quiet ones, over HTTP and in-process. */
    LoadResults.Hot measure(double satRate, double oneSessionRate) throws Exception {
        double rate = run.rate(Math.min(config.hotFraction() * oneSessionRate, 0.25 * satRate));
        double trickle = run.rate(config.quietTrickle() * satRate);
        run.phase(String.format(Locale.ROOT, "hot session at %.1f turns/s beside %d quiet ones trickling at %.1f turns/s", rate,
                config.quietSessions(), trickle));
        Path seed = run.work("quiet-seed.db");
        long t0 = System.nanoTime();
        seedQuiet(seed);
        double seedSecs = Math.round((System.nanoTime() - t0) / 1e7) / 100.0;
        run.step(String.format(Locale.ROOT, "  seeded in %.1f s", seedSecs));
        Path httpDb = copy(seed, run.work("serve-quiet.db"));
        Path inDb = copy(seed, run.work("inprocess-quiet.db"));

        OpenLoop.Measurement httpAlone;
        OpenLoop.Measurement inAlone;
        long[] httpMem;
        long[] inMem;
        try (ServerUnderTest server = run.start("hot"); HttpTurns h = new HttpTurns(server, run.timeout());
             InProcessTurns i = new InProcessTurns(run.work("inprocess-hot.db"))) {
            run.warmUp(h);
            run.warmUp(i);
            httpAlone = alone(h, rate);
            inAlone = alone(i, rate);
            httpMem = new long[] {h.memory().heapAfterGcBytes(), h.memory().rssBytes()};
            inMem = new long[] {i.memory().heapAfterGcBytes(), i.memory().rssBytes()};
        }
        LoadResults.HotRun http;
        LoadResults.HotRun in;
        try (ServerUnderTest server = run.start(httpDb, "quiet"); HttpTurns h = new HttpTurns(server, run.timeout());
             InProcessTurns i = new InProcessTurns(inDb)) {
            run.warmUp(h);
            run.warmUp(i);
            http = beside(h, rate, trickle, httpAlone, httpMem[0], httpMem[1]);
            in = beside(i, rate, trickle, inAlone, inMem[0], inMem[1]);
        }
        return new LoadResults.Hot(rate, trickle, config.quietSessions(), seedSecs, http, in);
    }

    private OpenLoop.Measurement alone(Turns t, double rate) throws Exception {
        t.create(List.of("hot"));
        run.step(t.name() + " hot session alone");
        OpenLoop.Measurement m = OpenLoop.open(t.name() + " hot alone", rate, LoadRun.seconds(config.hotSeconds()),
                run.drain(), n -> t.turn("hot", LoadRun.text(n)));
        run.step(String.format(Locale.ROOT, "  p50 %.1f  p99 %.1f ms, errors %s", m.p50Millis(), m.p99Millis(), m.errors()));
        return m;
    }

    private LoadResults.HotRun beside(Turns t, double rate, double trickle, OpenLoop.Measurement alone, long heapAlone,
                                      long rssAlone) throws Exception {
        t.create(List.of("hot"));
        run.step(t.name() + " hot session beside " + config.quietSessions() + " quiet ones");
        AtomicReference<Object> quiet = new AtomicReference<>();
        Thread trickling = Thread.ofPlatform().start(() -> {
            try {
                quiet.set(OpenLoop.open(t.name() + " quiet trickle", trickle, LoadRun.seconds(config.hotSeconds()), run.drain(),
                        n -> t.turn(quietId((int) (n % config.quietSessions())), LoadRun.text(n))));
            } catch (InterruptedException | RuntimeException e) {
                quiet.set(e);
            }
        });
        OpenLoop.Measurement beside = OpenLoop.open(t.name() + " hot beside quiet", rate, LoadRun.seconds(config.hotSeconds()),
                run.drain(), n -> t.turn("hot", LoadRun.text(n)));
        trickling.join();
        if (!(quiet.get() instanceof OpenLoop.Measurement q)) {
            throw new IllegalStateException("the quiet trickle failed", (Throwable) quiet.get());
        }
        run.step(String.format(Locale.ROOT, "  hot p50 %.1f  p99 %.1f ms, errors %s; quiet p50 %.1f ms, errors %s",
                beside.p50Millis(), beside.p99Millis(), beside.errors(), q.p50Millis(), q.errors()));
        return new LoadResults.HotRun(alone, beside, q, heapAlone, t.memory().heapAfterGcBytes(), rssAlone, t.memory().rssBytes());
    }

    /** The quiet sessions, each with one exchange (a question and its answer), written straight through the Java API. */
    private void seedQuiet(Path db) throws Exception {
        List<Event> exchange = new ArrayList<>();
        exchange.addAll(BenchMessage.at(0).toEvents()); // the user's question
        exchange.addAll(BenchMessage.at(3).toEvents()); // the assistant's answer
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) {
            int threads = 256; // concurrent creates share commits (the store's group commit)
            List<Thread> all = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int k = 0; k < threads; k++) {
                int first = k;
                all.add(Thread.ofVirtual().start(() -> {
                    try {
                        for (int i = first; i < config.quietSessions(); i += threads) {
                            Session s = tl.defaultTenant().create(quietId(i), SessionConfig.DEFAULT);
                            RawSteps.update(s, state -> exchange);
                        }
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : all) {
                t.join();
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("seeding the quiet sessions failed", failures.getFirst());
            }
        }
    }

    private static String quietId(int i) {
        return "quiet-" + i;
    }

    /** Copies a database with its log and shared-memory files. */
    private static Path copy(Path db, Path to) throws IOException {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Path f = Path.of(db + suffix);
            if (Files.exists(f)) {
                Files.copy(f, Path.of(to + suffix), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }
}
