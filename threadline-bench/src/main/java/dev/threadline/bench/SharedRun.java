package dev.threadline.bench;

import com.fasterxml.jackson.databind.JavaType;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.runtime.RawSteps;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Threadline;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One shared store through the same method as the SQLite figures: first untimed steps and raw writes
 * until the JIT is quiet ({@link JitWarmUp}); then at each history length a session is
 * filled (batches of 100 messages); then a run of single-message steps ({@code RawSteps.update}: the
 * session's command gate, lease, compare-and-set fenced append, commit) between two reads of the
 * server's durable byte counter, and as many raw floor writes on the same server (one plain connection,
 * one durable single-row write each) between two more; then untimed steps on the warm-up's session again
 * until the JIT is quiet, and {@link SharedConfig#timedSteps} steps, each timed, one step
 * and one raw write in every round, in an order shuffled from round to round (so a disturbance of the
 * shared machine hits both, and neither always follows the other); then cold loads
 * alternately with reads of one JSON document of the same events; then throughput over 1, 16, 256
 * sessions, each point between two raw floor rounds.
 */
final class SharedRun {
    private static final String TENANT = SessionInfo.DEFAULT_TENANT;

    private final SharedConfig config;
    private final Progress progress;
    private final java.util.concurrent.atomic.AtomicLong redecided = new java.util.concurrent.atomic.AtomicLong();

    SharedRun(SharedConfig config, Progress progress) {
        this.config = config;
        this.progress = progress;
    }

    SharedResults.Store run(SharedTarget target) throws Exception {
        long t0 = System.nanoTime();
        redecided.set(0);
        double loadBefore = load();
        List<SharedResults.Point> curves = new ArrayList<>();
        List<SharedResults.Rate> rates = new ArrayList<>();
        List<SharedResults.Rate> variantRates = new ArrayList<>();
        String server = target.describe();
        JitWarmUp.Outcome warmed;
        JitWarmUp.Outcome variantWarmed;
        try (Threadline tl = Threadline.builder().store(target.openStore()).build();
             Threadline variant = target.variant() == null ? null : Threadline.builder().store(target.openVariant()).build();
             SharedTarget.RawFloor raw = target.openRawFloor()) {
            Warmer warmer = new Warmer(target, tl, raw, "warm-up");
            warmed = warmer.run(config.warmUpMin());
            variantWarmed = variant == null ? null : new Warmer(target, variant, raw, "v-warm-up").run(config.warmUpMin());
            for (int length : config.historyLengths()) {
                curves.add(curve(target, tl, variant, raw, length, warmer));
            }
            for (int c : config.concurrency()) {
                SharedResults.Rate[] point = throughput(target, tl, variant, raw, c);
                rates.add(point[0]);
                if (point[1] != null) {
                    variantRates.add(point[1]);
                }
            }
        }
        progress.finishLine();
        String rawFloor = target.kind().equals("postgresql")
                ? "one single-row INSERT (session_id, seq, payload: the same event JSON) in auto-commit, one connection"
                : "one RPUSH of the same event JSON onto a list key, one connection (Lettuce, synchronous)";
        return new SharedResults.Store(target.kind(), server, target.storeConnections(), rawFloor,
                target.writtenBytesMethod(), target.heldBytesMethod(), warmed.describe(),
                variantWarmed == null ? null : variantWarmed.describe(), curves, rates, target.variant(), variantRates,
                SharedTargets.of(target.kind(), curves, rates, target.variant(), variantRates), (System.nanoTime() - t0) / 1e9,
                loadBefore, load(), redecided.get());
    }

    private SharedResults.Point curve(SharedTarget target, Threadline tl, Threadline variant, SharedTarget.RawFloor raw,
                                      int length, Warmer warmer) throws Exception {
        String id = "h" + length;
        int bytesSteps = config.stepsPerLength();
        int timedSteps = config.timedSteps();
        while (!BenchMessage.betweenTurns(length + bytesSteps + timedSteps)) {
            timedSteps++; // end on a whole turn: a cold load then finds the session idle
        }
        progress.phase(target.kind() + ": history " + length,
                length / 100 + 1 + 2L * (bytesSteps + timedSteps) + 2L * config.loadRepeats());
        Session s = prefill(tl, id, length);
        Session v = variant == null ? null : prefill(variant, "v" + id, length);
        String rawSession = "raw-" + length;
        List<String> payloads = payloads(bytesSteps + timedSteps);
        int[] at = {length, 0}; // the session's next message, the raw floor's next row

        // bytes: a run of steps between two reads of the server's counter, then as many raw writes
        Long heldBefore = target.heldBytes(TENANT, id);
        Long rawHeldBefore = raw.heldBytes(rawSession);
        Long a = target.writtenBytes();
        for (int i = 0; i < bytesSteps; i++) {
            step(s, at);
            progress.advance(1);
        }
        Long b = target.writtenBytes();
        Long heldAfter = target.heldBytes(TENANT, id);
        for (int i = 0; i < bytesSteps; i++) {
            raw.write(rawSession, at[1] + 1, payloads.get(at[1]));
            at[1]++;
            progress.advance(1);
        }
        Long c = target.writtenBytes();
        Long rawHeldAfter = raw.heldBytes(rawSession);

        // time: one step, one raw write (and the variant's step), in every round, each timed, so that the machine's
        // moods hit all alike, in an order shuffled from round to round: a part that always ran in one place (after
        // the raw write, say) would read that place's cost as its own; the events are made first, as the raw floor's
        // payloads are (what an agent decides is not the store's cost)
        Samples mine = new Samples();
        Samples floor = new Samples();
        Samples other = new Samples();
        int[] vat = {length};
        List<List<Event>> decided = decided(at[0], timedSteps);
        List<List<Event>> variantDecided = decided(vat[0], timedSteps);
        List<Integer> order = new ArrayList<>(v == null ? List.of(0, 2) : List.of(0, 1, 2));
        Random shuffle = new Random(length);
        // the filling and the last length's cold loads ran other code, which the JIT may still be compiling (on
        // cores the timed rounds share) or whose types may have undone some of the step's compiled code: the
        // warm-up's session takes steps again until the JIT is quiet before the timer starts
        JitWarmUp.Outcome rewarmed = warmer.run(0);
        long jitBefore = JitWarmUp.jitMillis();
        for (int i = 0; i < timedSteps; i++) {
            Collections.shuffle(order, shuffle);
            for (int part : order) {
                long t = System.nanoTime();
                switch (part) {
                    case 0 -> {
                        step(s, at[0]++, decided.get(i));
                        mine.add(System.nanoTime() - t);
                    }
                    case 1 -> { // the variant's own session, in the same rounds
                        step(v, vat[0]++, variantDecided.get(i));
                        other.add(System.nanoTime() - t);
                    }
                    default -> {
                        raw.write(rawSession, at[1] + 1, payloads.get(at[1]));
                        floor.add(System.nanoTime() - t);
                        at[1]++;
                    }
                }
            }
            progress.advance(2);
        }
        long jitAfter = JitWarmUp.jitMillis();
        Long jitMillis = jitBefore < 0 || jitAfter < 0 ? null : jitAfter - jitBefore;
        Double[] loads = coldLoads(target, raw, id, at[0]);
        return new SharedResults.Point(length, bytesSteps, perOp(sum(0L, a, b), bytesSteps), delta(heldBefore, heldAfter, bytesSteps),
                mine.medianMicros(), mine.p99Micros(), timedSteps, perOp(sum(0L, b, c), bytesSteps),
                delta(rawHeldBefore, rawHeldAfter, bytesSteps), floor.medianMicros(), floor.p99Micros(),
                v == null ? null : other.medianMicros(), v == null ? null : other.p99Micros(), rewarmed.rounds(), jitMillis,
                loads[0], loads[1]);
    }

    /** A new session of {@code length} messages, written in steps of 100 messages. */
    private Session prefill(Threadline tl, String id, int length) {
        return prefill(tl, id, length, () -> progress.advance(1));
    }

    /** A new session of {@code length} messages, written in steps of 100 messages; {@code afterEach} runs after each. */
    static Session prefill(Threadline tl, String id, int length, Runnable afterEach) {
        Session s = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
        for (int from = 0; from < length; from += 100) {
            List<Event> batch = new ArrayList<>();
            for (BenchMessage m : BenchMessage.range(from, Math.min(length, from + 100))) {
                batch.addAll(m.toEvents());
            }
            RawSteps.update(s, state -> batch);
            afterEach.run();
        }
        return s;
    }

    /** One step recording the session's next message ({@code at[0]}). */
    private void step(Session s, int[] at) {
        step(s, at[0]++);
    }

    /**
     * One step recording message {@code index} of the session, decided from the state as an agent loop
     * decides: when the store reported a conflict and the step is decided again on a state that already
     * holds the message (the first attempt was committed after all), it writes nothing and is counted
     * (see {@link SharedResults.Store#redecidedAfterCommit}). A first decision that finds the message
     * there already means something else wrote to the session (as the runtime's own take-over once
     * did, closing the running turn of a session that had sat idle past the lease linger): the run
     * stops saying so instead of counting it.
     */
    private void step(Session s, long index) {
        step(s, index, BenchMessage.at(index).toEvents());
    }

    /** {@link #step(Session, long)} with message {@code index}'s events made beforehand. */
    private void step(Session s, long index, List<Event> events) {
        int[] decisions = {0};
        RawSteps.update(s, state -> {
            decisions[0]++;
            if (state.messages().size() > index) {
                if (decisions[0] == 1) {
                    throw new IllegalStateException("session '" + s.id() + "' holds " + state.messages().size()
                            + " messages before step " + index + " recorded its message: something else wrote to it (status "
                            + state.status().wireName() + ", seq " + state.seq() + ")");
                }
                redecided.incrementAndGet();
                return List.of();
            }
            return events;
        });
    }

    /** Median cold load and median document read, timed alternately after one untimed round of each. */
    private Double[] coldLoads(SharedTarget target, SharedTarget.RawFloor raw, String id, int messages) throws Exception {
        List<Event> events = new ArrayList<>();
        BenchMessage.range(0, messages).forEach(m -> events.addAll(m.toEvents()));
        JavaType type = Json.mapper().getTypeFactory().constructCollectionType(List.class, Event.class);
        raw.putDocument(id, Json.mapper().writerFor(type).writeValueAsString(events));
        long[] loads = new long[config.loadRepeats()];
        long[] reads = new long[config.loadRepeats()];
        for (int i = -1; i < loads.length; i++) {
            long t = System.nanoTime();
            int n;
            try (Threadline fresh = Threadline.builder().store(target.openStore()).build()) {
                n = fresh.defaultTenant().open(id).state().messages().size();
            }
            long load = System.nanoTime() - t;
            if (n != messages) {
                throw new IllegalStateException(target.kind() + ": loaded " + n + " messages of " + id + ", expected " + messages);
            }
            t = System.nanoTime();
            int parsed = target.readDocument(id);
            long read = System.nanoTime() - t;
            if (parsed != events.size()) {
                throw new IllegalStateException(target.kind() + ": the document of " + id + " held " + parsed + " events");
            }
            if (i >= 0) {
                loads[i] = load;
                reads[i] = read;
                progress.advance(2);
            }
        }
        return new Double[] {Samples.medianMillis(loads), Samples.medianMillis(reads)};
    }

    private static double load() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * A session of its own that takes untimed steps, each with a raw write, until the JIT is quiet
     * ({@link JitWarmUp}): first before any length, so that no measured length pays for compiling the
     * step's code (with a fixed 200 of each, as this run once had, the JIT was still compiling the step's
     * path through the first lengths: docs/benchmarks.md), then again before each length's timed rounds.
     * Each run continues the same session.
     */
    private final class Warmer {
        private final SharedTarget target;
        private final SharedTarget.RawFloor raw;
        private final Session session;
        private final String id;
        private final String payload;
        private int next;

        Warmer(SharedTarget target, Threadline tl, SharedTarget.RawFloor raw, String id) throws Exception {
            this.target = target;
            this.raw = raw;
            this.id = id;
            this.session = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
            this.payload = payloads(1).get(0);
        }

        /** At least {@code min} rounds, at most the configuration's bound. */
        JitWarmUp.Outcome run(int min) throws Exception {
            progress.phase(target.kind() + ": warming the JIT up (until it is quiet, at most " + config.warmUpMax() + " steps)",
                    2L * config.warmUpMax());
            JitWarmUp.Outcome o = JitWarmUp.run(min, config.warmUpMax(), i -> {
                step(session, next);
                next++;
                raw.write(id, next, payload);
                progress.advance(2);
            });
            progress.advance(2L * (config.warmUpMax() - o.rounds()));
            return o;
        }
    }

    /**
     * Rounds of: raw floor, the store's steps on fresh sessions, raw floor, the variant's (if any), ... and
     * a last raw floor round; each round of steps is set beside the mean of the raw rounds around it.
     */
    private SharedResults.Rate[] throughput(SharedTarget target, Threadline tl, Threadline variant, SharedTarget.RawFloor raw,
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
                mine.get(k).add(steps(runtime, (k == 0 ? "p" : "v") + sessions + "-" + r + "-", sessions, perSession));
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
    private double steps(Threadline tl, String prefix, int sessions, int perSession) throws Exception {
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
                        step(s, k);
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
        List<String> payloads = payloads(config.rawOps());
        long t0 = System.nanoTime();
        for (int i = 0; i < payloads.size(); i++) {
            raw.write(session, i + 1, payloads.get(i));
        }
        progress.advance(payloads.size());
        return payloads.size() / ((System.nanoTime() - t0) / 1e9);
    }

    /** The events of messages {@code from .. from + n - 1}, one list per step, made before a timed run of steps. */
    static List<List<Event>> decided(long from, int n) {
        List<List<Event>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(BenchMessage.at(from + i).toEvents());
        }
        return out;
    }

    /** The JSON of the benchmark's events, one per raw write, in the order the conversation writes them. */
    static List<String> payloads(int n) throws Exception {
        List<String> out = new ArrayList<>(n);
        for (long m = 0; out.size() < n; m++) {
            for (Event e : BenchMessage.at(m).toEvents()) {
                if (out.size() < n) {
                    out.add(Json.mapper().writerFor(Event.class).writeValueAsString(e));
                }
            }
        }
        return out;
    }

    private static Long sum(Long acc, Long before, Long after) {
        return acc == null || before == null || after == null || after < before ? null : acc + (after - before);
    }

    private static Double perOp(Long total, int ops) {
        return total == null ? null : (double) total / ops;
    }

    private static Double delta(Long before, Long after, int ops) {
        return before == null || after == null ? null : (double) (after - before) / ops;
    }
}
