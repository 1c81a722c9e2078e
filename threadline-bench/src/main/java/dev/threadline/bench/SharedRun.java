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
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One shared store through the same method as the SQLite figures: at each history length a session is
 * filled (batches of 100 messages), then single-message steps are timed ({@code RawSteps.update}: the
 * session's command gate, lease, compare-and-set fenced append, commit) alternately with as many raw
 * floor writes on the same server (one plain connection, one durable single-row write each), in two
 * halves each, with the server's durable byte counter read around every half; then cold loads
 * alternately with reads of one JSON document of the same events; then throughput over 1, 16, 256
 * sessions, each point between two raw floor rounds.
 */
final class SharedRun {
    private static final String TENANT = SessionInfo.DEFAULT_TENANT;

    private final SharedConfig config;
    private final Progress progress;

    SharedRun(SharedConfig config, Progress progress) {
        this.config = config;
        this.progress = progress;
    }

    SharedResults.Store run(SharedTarget target) throws Exception {
        long t0 = System.nanoTime();
        List<SharedResults.Point> curves = new ArrayList<>();
        List<SharedResults.Rate> rates = new ArrayList<>();
        String server = target.describe();
        try (Threadline tl = Threadline.builder().store(target.openStore()).build();
             SharedTarget.RawFloor raw = target.openRawFloor()) {
            for (int length : config.historyLengths()) {
                curves.add(curve(target, tl, raw, length));
            }
            for (int c : config.concurrency()) {
                rates.add(throughput(tl, raw, c));
            }
        }
        progress.finishLine();
        String rawFloor = target.kind().equals("postgresql")
                ? "one single-row INSERT (session_id, seq, payload: the same event JSON) in auto-commit, one connection"
                : "one RPUSH of the same event JSON onto a list key, one connection (Lettuce, synchronous)";
        return new SharedResults.Store(target.kind(), server, target.storeConnections(), rawFloor,
                target.writtenBytesMethod(), target.heldBytesMethod(), curves, rates,
                SharedTargets.of(target.kind(), curves, rates), (System.nanoTime() - t0) / 1e9);
    }

    private SharedResults.Point curve(SharedTarget target, Threadline tl, SharedTarget.RawFloor raw, int length)
            throws Exception {
        String id = "h" + length;
        int steps = config.stepsPerLength();
        while (!BenchMessage.betweenTurns(length + steps)) {
            steps++; // end on a whole turn: a cold load then finds the session idle
        }
        progress.phase(target.kind() + ": history " + length, length / 100 + 1 + 2L * steps + 2L * config.loadRepeats());
        Session s = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
        for (int from = 0; from < length; from += 100) {
            List<Event> batch = new ArrayList<>();
            for (BenchMessage m : BenchMessage.range(from, Math.min(length, from + 100))) {
                batch.addAll(m.toEvents());
            }
            RawSteps.update(s, state -> batch);
            progress.advance(1);
        }
        String rawSession = "raw-" + length;
        List<String> payloads = payloads(steps);
        Samples mine = new Samples();
        Samples floor = new Samples();
        Long written = 0L;
        Long rawWritten = 0L;
        Long heldBefore = target.heldBytes(TENANT, id);
        Long rawHeldBefore = raw.heldBytes(rawSession);
        int half = steps / 2;
        int done = 0;
        int rawDone = 0;
        for (int part = 0; part < 2; part++) {
            int n = part == 0 ? half : steps - half;
            Long a = target.writtenBytes();
            for (int i = 0; i < n; i++, done++) {
                List<Event> events = BenchMessage.at(length + done).toEvents();
                long t = System.nanoTime();
                RawSteps.update(s, state -> events);
                mine.add(System.nanoTime() - t);
                progress.advance(1);
            }
            Long b = target.writtenBytes();
            for (int i = 0; i < n; i++, rawDone++) {
                long t = System.nanoTime();
                raw.write(rawSession, rawDone + 1, payloads.get(rawDone));
                floor.add(System.nanoTime() - t);
                progress.advance(1);
            }
            Long c = target.writtenBytes();
            written = sum(written, a, b);
            rawWritten = sum(rawWritten, b, c);
        }
        Long heldAfter = target.heldBytes(TENANT, id);
        Long rawHeldAfter = raw.heldBytes(rawSession);
        Double[] loads = coldLoads(target, raw, id, length + steps);
        return new SharedResults.Point(length, steps, perOp(written, steps), delta(heldBefore, heldAfter, steps),
                mine.medianMicros(), mine.p99Micros(), steps, perOp(rawWritten, steps),
                delta(rawHeldBefore, rawHeldAfter, steps), floor.medianMicros(), floor.p99Micros(), loads[0], loads[1]);
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

    private SharedResults.Rate throughput(Threadline tl, SharedTarget.RawFloor raw, int sessions) throws Exception {
        int perSession = Math.max(16, 4 * ((2 * config.rawOps() / 4 + sessions - 1) / sessions)); // whole turns; a lease taken per 16 steps or fewer
        progress.phase("throughput: " + sessions + " sessions", 2L * config.rawOps() + (long) sessions * perSession);
        List<Session> handles = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            handles.add(tl.defaultTenant().create("p" + sessions + "-" + i, SessionConfig.DEFAULT));
        }
        double before = rawRate(raw, "tp-before-" + sessions);
        long t0 = System.nanoTime();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (Session s : handles) {
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    for (int k = 0; k < perSession; k++) {
                        List<Event> events = BenchMessage.at(k).toEvents();
                        RawSteps.update(s, state -> events);
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
        double after = rawRate(raw, "tp-after-" + sessions);
        long steps = (long) sessions * perSession;
        return new SharedResults.Rate(sessions, steps, nanos / 1e9, steps / (nanos / 1e9), before, after);
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
