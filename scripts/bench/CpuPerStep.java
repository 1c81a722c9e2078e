import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.testkit.RawSteps;
import dev.threadline.store.postgres.PostgresStateStore;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * CPU per step on PostgreSQL, the runtime's and the server's, for comparing two builds on a shared
 * machine, where wall-clock throughput moves 2x with the load but CPU time per step much less.
 * Rounds of {@code sessions} new sessions written at once ({@code steps} single-message steps each,
 * one virtual thread per session, through the command gate as the shared-store benchmark's steps);
 * per round: steps/s, this JVM's CPU per step (OperatingSystemMXBean) and the PostgreSQL server's
 * (utime + stime from /proc of the postmaster and its children). Run by cpu-per-step.sh against a
 * bench jar of any commit; see docs/benchmarks.md, "The engine shape before and after".
 *
 * <pre>java -cp threadline-bench.jar CpuPerStep.java postgresql://user@host:port/db PGDATA sessions steps rounds</pre>
 */
public class CpuPerStep {
    public static void main(String[] a) throws Exception {
        String url = a[0];
        String postmaster = Files.readAllLines(Path.of(a[1], "postmaster.pid")).get(0).trim();
        int sessions = Integer.parseInt(a[2]), steps = Integer.parseInt(a[3]), rounds = Integer.parseInt(a[4]);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        String schema = "cpu" + Long.toString(System.nanoTime(), 36);
        try (var store = PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema));
             Threadline tl = Threadline.builder().store(store).build()) {
            for (int r = 0; r < rounds; r++) {
                List<Session> handles = new ArrayList<>();
                for (int i = 0; i < sessions; i++) {
                    handles.add(tl.defaultTenant().create("r" + r + "-" + i, SessionConfig.DEFAULT));
                }
                long pg0 = serverTicks(postmaster), jvm0 = os.getProcessCpuTime(), t0 = System.nanoTime();
                List<Thread> threads = new ArrayList<>();
                for (Session s : handles) {
                    threads.add(Thread.ofVirtual().start(() -> {
                        for (int k = 0; k < steps; k++) {
                            var events = BenchMessage.at(k).toEvents();
                            RawSteps.update(s, state -> events);
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
                long t1 = System.nanoTime(), jvm1 = os.getProcessCpuTime(), pg1 = serverTicks(postmaster);
                double n = (double) sessions * steps;
                System.out.printf(Locale.ROOT, "round %d: %.0f steps/s, jvm cpu %.1f us/step, pg cpu %.1f us/step%n",
                        r, n / ((t1 - t0) / 1e9), (jvm1 - jvm0) / 1e3 / n, (pg1 - pg0) * 10_000.0 / n);
            }
        }
    }

    /** utime + stime, in clock ticks (1/100 s), of the postmaster and its children. */
    static long serverTicks(String postmaster) throws Exception {
        long sum = 0;
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path p : procs) {
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (p.getFileName().toString().equals(postmaster) || f[1].equals(postmaster)) {
                        sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (java.io.IOException | RuntimeException gone) {
                    // a process that ended between the listing and the read
                }
            }
        }
        return sum;
    }
}
