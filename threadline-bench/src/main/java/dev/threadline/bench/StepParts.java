package dev.threadline.bench;

import dev.threadline.bench.kit.JitWarmUp;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.testkit.RawSteps;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * {@code threadline bench step-parts}: where one step's time goes, beside the raw floor, on a shared
 * store. Each round times, one after the other on one thread: a step through the runtime (as the
 * shared-store benchmark's step; the store under it is wrapped so the time inside its {@code append}
 * is read apart from the rest, the runtime's own), an {@code append} straight to a second instance of
 * the store (a session of its own, leased by hand: no runtime), and the raw floor's write. For each
 * it reports the median wall time and the median CPU time of the calling thread (the JVM's own work:
 * what is left of the wall time is waiting for the server). The rounds are timed after untimed ones that
 * run until the JIT is quiet ({@link JitWarmUp}). Not thread-safe; one run at a time.
 *
 * <pre>
 * threadline bench step-parts [--store postgresql|redis|redis-cluster|URL] [--messages N] [--rounds N]
 * </pre>
 */
final class StepParts {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private StepParts() {}

    /** Runs it; returns the exit status (2 for bad arguments). */
    static int main(String[] args, PrintStream out, PrintStream err) throws Exception {
        String store = "postgresql";
        int messages = 10_000;
        int rounds = 3_000;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--store" -> store = value(args, ++i, "--store");
                    case "--messages" -> messages = count(value(args, ++i, "--messages"), "--messages", 0);
                    case "--rounds" -> rounds = count(value(args, ++i, "--rounds"), "--rounds", 1);
                    case "-h", "--help" -> {
                        out.println("usage: threadline bench step-parts [--store postgresql|redis|redis-cluster|URL]"
                                + " [--messages N (10000)] [--rounds N (3000)]");
                        return 0;
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "' (try --help)");
                }
            }
            if (!SharedBench.shared(store)) {
                throw new IllegalArgumentException("--store '" + store + "' is not a shared store; give postgresql, redis,"
                        + " redis-cluster or their URLs");
            }
        } catch (IllegalArgumentException bad) {
            err.println("threadline bench step-parts: " + bad.getMessage());
            return 2;
        }
        if (!CPU.isCurrentThreadCpuTimeSupported()) {
            err.println("threadline bench step-parts: this JVM cannot read a thread's CPU time");
            return 1;
        }
        CPU.setThreadCpuTimeEnabled(true);
        try (SharedTarget target = SharedBench.open(store)) {
            print(target, messages, rounds, measure(target, messages, rounds, out), out);
        }
        return 0;
    }

    /** Medians of one part, in microseconds: wall time and the calling thread's CPU time. */
    record Part(String name, double wallMicros, double cpuMicros) {}

    /**
     * Runs the rounds and returns each part's medians; says on {@code out} how long the untimed warm-up ran
     * ({@link JitWarmUp}: until the JIT is quiet, at least as many rounds as are timed up to 2,000, at most 40,000;
     * runs of fewer than 100 rounds, smoke runs, warm up as many rounds as they time).
     */
    private static List<Part> measure(SharedTarget target, int messages, int rounds, PrintStream out) throws Exception {
        long[] inAppend = new long[2]; // wall, cpu of the last append through the wrapped store
        StateStore inner = target.openStore();
        StateStore timed = (StateStore) Proxy.newProxyInstance(StepParts.class.getClassLoader(), new Class<?>[] {StateStore.class},
                (proxy, method, a) -> {
                    boolean append = method.getName().equals("append");
                    long c0 = append ? CPU.getCurrentThreadCpuTime() : 0;
                    long t0 = append ? System.nanoTime() : 0;
                    try {
                        return method.invoke(inner, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        if (append) {
                            inAppend[0] = System.nanoTime() - t0;
                            inAppend[1] = CPU.getCurrentThreadCpuTime() - c0;
                        }
                    }
                });
        try (Threadline tl = Threadline.builder().store(timed).build();
             StateStore direct = target.openStore();
             SharedTarget.RawFloor raw = target.openRawFloor()) {
            Session s = SessionSteps.prefill(tl, "parts-step", messages, () -> { });
            SessionSteps.prefill(tl, "parts-append", messages, () -> { });
            SessionKey key = new SessionKey(tl.defaultTenant().id(), "parts-append");
            long epoch = lease(direct, key);
            long[] head = {direct.head(key)};
            long[] next = {messages, messages}; // the step session's next message, the append session's
            int least = Math.min(2_000, rounds);
            String warmPayload = SessionSteps.payloads(1).get(0);
            int[] rawSeq = {0};
            JitWarmUp.Outcome warmed = JitWarmUp.run(least, rounds < 100 ? least : 40_000, i -> {
                step(s, next[0]++);
                append(direct, key, epoch, head, BenchMessage.at(next[1]++).toEvents(), UUID.randomUUID().toString());
                raw.write("parts-raw", ++rawSeq[0], warmPayload);
            });
            out.printf(Locale.ROOT, "warm-up: %s%n", warmed.describe());
            List<String> payloads = SessionSteps.payloads(rounds);
            int rawBase = rawSeq[0];
            Samples[] wall = {new Samples(), new Samples(), new Samples(), new Samples(), new Samples()};
            Samples[] cpu = {new Samples(), new Samples(), new Samples(), new Samples(), new Samples()};
            List<List<Event>> stepEvents = SessionSteps.decided(next[0], rounds); // made first, as the raw floor's payloads are
            List<List<Event>> appendEvents = SessionSteps.decided(next[1], rounds);
            // the command ids made first too: UUID.randomUUID reads /dev/urandom, some µs that the runtime's own ids do not cost
            List<String> commands = new ArrayList<>(rounds);
            for (int i = 0; i < rounds; i++) {
                commands.add(UUID.randomUUID().toString());
            }
            for (int i = 0; i < rounds; i++) {
                List<Event> mine = stepEvents.get(i);
                List<Event> theirs = appendEvents.get(i);
                long[] step = timed(() -> step(s, next[0]++, mine), wall[0], cpu[0]);
                wall[1].add(inAppend[0]);
                cpu[1].add(inAppend[1]);
                wall[2].add(step[0] - inAppend[0]);
                cpu[2].add(step[1] - inAppend[1]);
                String command = commands.get(i);
                timed(() -> append(direct, key, epoch, head, theirs, command), wall[3], cpu[3]);
                timed(() -> raw.write("parts-raw", ++rawSeq[0], payloads.get(rawSeq[0] - 1 - rawBase)), wall[4], cpu[4]);
            }
            direct.release(direct.lease(key).orElseThrow());
            String[] names = {"step through the runtime", "  of which inside the store's append", "  of which the runtime's own",
                    "append straight to the store", "raw floor write"};
            List<Part> parts = new ArrayList<>();
            for (int i = 0; i < names.length; i++) {
                parts.add(new Part(names[i], wall[i].medianMicros(), cpu[i].medianMicros()));
            }
            return parts;
        }
    }

    /** Work to time; may throw what the store or the raw floor throws. */
    private interface Work {
        void run() throws Exception;
    }

    /** Runs {@code work}, adds its wall and calling-thread CPU nanoseconds to the samples, and returns both. */
    private static long[] timed(Work work, Samples wall, Samples cpu) throws Exception {
        long c0 = CPU.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        work.run();
        long[] took = {System.nanoTime() - t0, CPU.getCurrentThreadCpuTime() - c0};
        wall.add(took[0]);
        cpu.add(took[1]);
        return took;
    }

    private static void print(SharedTarget target, int messages, int rounds, List<Part> parts, PrintStream out) {
        double floor = parts.get(parts.size() - 1).wallMicros();
        out.printf(Locale.ROOT, "%s; %s%n", target.describe(), target.storeConnections());
        out.printf(Locale.ROOT, "sessions of %,d messages, %,d rounds (medians; CPU: the calling thread's)%n%n", messages, rounds);
        out.println("| part | wall µs | CPU µs | wall / raw floor |");
        out.println("| --- | ---: | ---: | ---: |");
        for (Part p : parts) {
            out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |%n", p.name(), p.wallMicros(), p.cpuMicros(), p.wallMicros() / floor);
        }
    }

    /** Leases the session for the direct appends, waiting (bounded) for the runtime's lease of the prefill to go. */
    private static long lease(StateStore store, SessionKey key) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            if (store.acquire(key, "threadline-bench-step-parts", Duration.ofHours(1), null) instanceof LeaseResult.Acquired a) {
                return a.lease().epoch();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("session '" + key.id() + "' stayed leased by the runtime for 30 s");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }

    /** One step recording message {@code index}, as the shared-store benchmark's step does. */
    private static void step(Session s, long index) {
        step(s, index, BenchMessage.at(index).toEvents());
    }

    /** {@link #step(Session, long)} with message {@code index}'s events made beforehand. */
    private static void step(Session s, long index, List<Event> events) {
        RawSteps.update(s, state -> state.messages().size() > index ? List.of() : events);
    }

    /** {@code events} appended straight to the store after {@code head[0]}, as command {@code command}. */
    private static void append(StateStore store, SessionKey key, long epoch, long[] head, List<Event> events, String command) {
        List<StoredEvent> stored = new ArrayList<>(events.size());
        Instant now = Instant.now();
        long seq = head[0];
        for (Event e : events) {
            seq++;
            stored.add(new StoredEvent(key.id(), seq, seq, now, command, CheckpointSource.LOOP, e));
        }
        store.append(AppendRequest.of(key, head[0], epoch, stored));
        head[0] = seq;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int count(String v, String option, int min) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // said below
        }
        throw new IllegalArgumentException(option + " must be a whole number of at least " + min + ", was '" + v + "'");
    }
}
