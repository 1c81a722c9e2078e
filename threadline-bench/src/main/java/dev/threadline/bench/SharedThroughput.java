package dev.threadline.bench;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The throughput points of a shared-store run ({@link SharedRun}): rounds of raw floor, the store's steps
 * on fresh sessions, raw floor, the variant's (if any), ... and a last raw floor round; each round of steps
 * is set beside the mean of the raw rounds around it. Not thread-safe: one point at a time.
 */
final class SharedThroughput {
    private final SharedConfig config;
    private final Progress progress;
    private final SessionSteps steps;

    SharedThroughput(SharedConfig config, Progress progress, SessionSteps steps) {
        this.config = config;
        this.progress = progress;
        this.steps = steps;
    }

    /** The point of {@code sessions} sessions at once: the default store's rate and the variant's (null without one). */
    SharedResults.Rate[] point(SharedTarget target, Threadline tl, Threadline variant, SharedTarget.RawFloor raw,
                               int sessions) throws Exception {
        int perSession = Math.max(16, 4 * ((2 * config.rawOps() / 4 + sessions - 1) / sessions)); // whole turns
        int kinds = variant == null ? 1 : 2;
        int rounds = config.rounds();
        progress.phase(target.kind() + " throughput: " + sessions + " sessions",
                (long) (rounds * kinds + 1) * config.rawOps() + (long) rounds * kinds * sessions * perSession);
        List<List<Double>> mine = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Double>> around = List.of(new ArrayList<>(), new ArrayList<>());
        double rawBefore = rawRate(raw, "tp" + sessions + "-raw-0");
        int rawRound = 1;
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < kinds; k++) {
                Threadline runtime = k == 0 ? tl : variant;
                mine.get(k).add(stepRate(runtime, (k == 0 ? "p" : "v") + sessions + "-" + r + "-", sessions, perSession));
                double rawAfter = rawRate(raw, "tp" + sessions + "-raw-" + rawRound++);
                around.get(k).add((rawBefore + rawAfter) / 2);
                rawBefore = rawAfter;
            }
        }
        SharedResults.Rate[] out = new SharedResults.Rate[2];
        for (int k = 0; k < kinds; k++) {
            List<Double> ratios = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                ratios.add(mine.get(k).get(r) / around.get(k).get(r));
            }
            out[k] = new SharedResults.Rate(sessions, (long) sessions * perSession, List.copyOf(mine.get(k)),
                    List.copyOf(around.get(k)), LimitRun.median(mine.get(k)), LimitRun.median(around.get(k)), LimitRun.median(ratios));
        }
        return out;
    }

    /** {@code perSession} steps on each of {@code sessions} new sessions at once, one virtual thread each; steps per second. */
    private double stepRate(Threadline tl, String prefix, int sessions, int perSession) throws Exception {
        List<Session> handles = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            handles.add(tl.defaultTenant().create(prefix + i, SessionConfig.DEFAULT));
        }
        long t0 = System.nanoTime();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (Session s : handles) {
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    for (int k = 0; k < perSession; k++) {
                        steps.step(s, k);
                        progress.advance(1);
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long nanos = System.nanoTime() - t0;
        if (failure.get() != null) {
            throw failure.get();
        }
        return (double) sessions * perSession / (nanos / 1e9);
    }

    /** One round of raw floor writes; returns writes per second. */
    private double rawRate(SharedTarget.RawFloor raw, String session) throws Exception {
        List<String> payloads = SessionSteps.payloads(config.rawOps());
        long t0 = System.nanoTime();
        for (int i = 0; i < payloads.size(); i++) {
            raw.write(session, i + 1, payloads.get(i));
        }
        progress.advance(payloads.size());
        return payloads.size() / ((System.nanoTime() - t0) / 1e9);
    }
}
