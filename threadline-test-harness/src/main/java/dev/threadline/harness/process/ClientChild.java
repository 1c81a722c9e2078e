package dev.threadline.harness.process;

import dev.threadline.harness.history.Outcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A child JVM of the multi-process tests that submits turns: {@code clients} threads per session in a
 * loop (command ids {@code <name>-<session>-<thread>-<n>}, text {@code work <cid>}), plus what the test
 * sends on stdin: {@code SUBMIT <session> <cid> <text>} (run on a thread of its own), {@code STATS} (print
 * what it uses, {@link NodeStats}) and {@code QUIT}
 * (stop the loops, let calls in flight end, print {@code DONE}, exit). A loop's call that ends unknown (the store
 * did not answer) is followed by a pause of {@code backoffMillis} (default 0) before the next, as a client would. It prints {@code READY <name> <pid>}
 * once its sessions exist; with {@code standby=true} it first prints {@code STANDBY <name> <pid>} and waits
 * for {@code GO} (or {@code QUIT}) before it is ready. It exits by itself after {@code maxSeconds} or when stdin closes.
 */
public final class ClientChild {
    private ClientChild() {}

    /**
     * Runs the child with {@code key=value} arguments (see {@link ChildArgs}).
     *
     * @throws Exception any failure: the child exits non-zero and the test reads its stderr
     */
    public static void main(String[] args) throws Exception {
        ChildArgs a = ChildArgs.parse(args);
        Watchdog.exitAfter(a.maxRun());
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        try (ChildRuntime rt = retrying(() -> ChildRuntime.start(a))) {
            a.sessions().forEach(s -> retrying(() -> rt.session(s)));
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (a.standby() && !awaitGo(a, in)) {
                ChildOut.line("DONE");
                System.exit(0);
            }
            ChildOut.line("READY " + a.name() + " " + ProcessHandle.current().pid());
            String prefix = a.name().replace('#', '.');
            for (String s : a.sessions()) {
                for (int t = 0; t < a.clients(); t++) {
                    String base = prefix + "-" + s + "-" + t + "-";
                    threads.add(Thread.ofVirtual().start(() -> {
                        for (int n = 0; !stop.get(); n++) {
                            if (rt.submit(s, base + n, "work " + base + n) == Outcome.UNKNOWN && a.backoff().isPositive()) {
                                LockSupport.parkNanos(a.backoff().toNanos()); // a client's pause before it tries again
                            }
                        }
                    }));
                }
            }
            if (a.mixEvery().isPositive()) {
                Mixer mixer = new Mixer(rt, a.sessions(), prefix, a.mixEvery(), stop);
                threads.add(Thread.ofVirtual().start(mixer::run));
            }
            String line;
            while ((line = in.readLine()) != null && !line.equals("QUIT")) {
                String[] p = line.split(" ", 4);
                if (p.length == 4 && p[0].equals("SUBMIT")) {
                    threads.add(Thread.ofVirtual().start(() -> rt.submit(p[1], p[2], p[3])));
                } else if (line.equals("STATS")) {
                    ChildOut.line(NodeStats.measure().line());
                } else {
                    ChildOut.line("BAD " + line);
                }
            }
            stop.set(true);
            long stuck = 0;
            for (Thread t : threads) {
                if (!t.join(Duration.ofSeconds(60))) {
                    stuck++;
                }
            }
            ChildOut.line(stuck == 0 ? "DONE" : "STUCK " + stuck);
        }
        System.exit(0);
    }

    /**
     * Opens the store, or a session, as a node starting during a database failover would: a store that
     * cannot be reached is tried again every 200 ms for up to a minute (a soak boots standbys ahead, and a
     * failover may come while one starts).
     */
    private static <T> T retrying(java.util.function.Supplier<T> open) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            try {
                return open.get();
            } catch (dev.threadline.core.error.StorageException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos()); // a node's pause before it tries its database again
            }
        }
    }

    /** A standby's wait for GO: true on GO, false on QUIT or when stdin closes. */
    private static boolean awaitGo(ChildArgs a, BufferedReader in) throws java.io.IOException {
        ChildOut.line("STANDBY " + a.name() + " " + ProcessHandle.current().pid());
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("GO")) {
                return true;
            }
            if (line.equals("QUIT")) {
                return false;
            }
            ChildOut.line("BAD " + line);
        }
        return false;
    }
}
