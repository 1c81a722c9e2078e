package dev.threadline.bench;

import dev.threadline.bench.kit.JitWarmUp;
import dev.threadline.bench.kit.SqliteFiles;
import dev.threadline.core.Threadline;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.WrappedDataKey;
import dev.threadline.core.event.Event;
import dev.threadline.core.runtime.Session;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code threadline bench encryption}: what encryption at rest (ADR 0049) costs a durable step and a stored event,
 * measured against the same store without keys in the same run (its floor). On SQLite two files, one plain and one
 * opened with a keyring; on PostgreSQL or Redis two stores on one server (the benchmark's own, or a URL's), one opened
 * with a keyring; each holds a session prefilled with the same conversation; after an untimed warm-up of
 * both until the JIT is quiet, the rounds alternate the two (which goes first alternates too), each a block of
 * steps through the runtime (the shared-store benchmark's step: one message, its events decided from the state).
 * Per variant: the median and p99 wall time of a step, and the process's CPU time per step (every thread: the
 * sealing runs in the store's group commit, not on the caller's thread). Then both files are checkpointed and
 * measured: the bytes of their payload columns per event, the file per event, and the rows of the full-text index (a
 * sealed store keeps none, ADR 0049, which is part of what it saves). On a shared store, the bytes the server holds
 * for each session ({@link SharedTarget#heldBytes}) are read before and after each block: their growth per event. Last, the seal alone: the same payloads sealed and
 * opened in process, without a store. Not thread-safe.
 *
 * <pre>
 * threadline bench encryption [--dir DIR] [--messages N (1000)] [--steps N (2000)] [--rounds N (5)]
 *                             [--synchronous full|normal (full)]
 * </pre>
 */
final class EncryptionOverhead {
    private EncryptionOverhead() {}

    /** One side of the comparison: its file, runtime, session and figures. */
    private static final class Variant {
        final String name;
        final Threadline tl;
        final Session session;
        final SessionSteps steps = new SessionSteps();
        final Samples wall = new Samples();
        final List<Double> roundMedians = new ArrayList<>();
        long next;
        long cpuNanos;
        long timedSteps;
        long timedEvents;
        long heldGrowth;

        Variant(String name, Threadline tl, Session session, long next) {
            this.name = name;
            this.tl = tl;
            this.session = session;
            this.next = next;
        }
    }

    /** Runs it; returns the exit status (2 for bad arguments). */
    static int main(String[] args, PrintStream out, PrintStream err) throws Exception {
        Path dir = null;
        int messages = 1_000;
        int steps = 2_000;
        int rounds = 5;
        SqliteStateStore.Synchronous sync = SqliteStateStore.Synchronous.FULL;
        String store = "sqlite";
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--dir" -> dir = Path.of(value(args, ++i, "--dir"));
                    case "--messages" -> messages = count(value(args, ++i, "--messages"), "--messages", 0);
                    case "--steps" -> steps = count(value(args, ++i, "--steps"), "--steps", 1);
                    case "--rounds" -> rounds = count(value(args, ++i, "--rounds"), "--rounds", 1);
                    case "--synchronous" -> sync = synchronous(value(args, ++i, "--synchronous"));
                    case "--store" -> store = value(args, ++i, "--store");
                    case "-h", "--help" -> {
                        out.println("usage: threadline bench encryption [--store sqlite|postgresql|redis|redis-cluster|URL (sqlite)]"
                                + " [--dir DIR] [--messages N (1000)] [--steps N (2000)] [--rounds N (5)] [--synchronous full|normal (full)]");
                        return 0;
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "' (try --help)");
                }
            }
            if (!store.equals("sqlite") && !SharedBench.shared(store)) {
                throw new IllegalArgumentException("--store '" + store + "' is none of sqlite, postgresql, redis, redis-cluster or their URLs");
            }
        } catch (IllegalArgumentException bad) {
            err.println("threadline bench encryption: " + bad.getMessage());
            return 2;
        }
        if (!store.equals("sqlite")) {
            Path ring = keyring(Files.createTempDirectory("threadline-bench-encryption").resolve("keyring.json"));
            try (SharedTarget target = SharedBench.open(store)) {
                Variant plain = open("plain", target.openStore(), messages);
                Variant sealed = open("sealed", target.openSealedStore(KeyProviders.keyring(ring)), messages);
                long[] held = {0, 0};
                try {
                    run(plain, sealed, steps, rounds, out, v -> {
                        try {
                            return target.heldBytes(v.tl.defaultTenant().id(), v.session.id());
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                } finally {
                    plain.tl.close();
                    sealed.tl.close();
                }
                out.printf(Locale.ROOT, "%s%n", target.describe());
                printTimes(out, "prefilled with " + String.format(Locale.ROOT, "%,d", messages) + " messages", steps, rounds, plain, sealed);
                out.println("| store | events written timed | bytes held per event (" + target.heldBytesMethod() + ") |");
                out.println("| --- | ---: | ---: |");
                for (Variant v : List.of(plain, sealed)) {
                    out.printf(Locale.ROOT, "| %s | %,d | %.1f |%n", v.name, v.timedEvents, (double) v.heldGrowth / v.timedEvents);
                }
                out.printf(Locale.ROOT, "%nsealed - plain per event: held %+.1f B%n", (double) sealed.heldGrowth / sealed.timedEvents
                        - (double) plain.heldGrowth / plain.timedEvents);
                printSealing(out, sealOnly(SessionSteps.payloads(Math.max(1_000, steps))));
            }
            return 0;
        }
        if (dir == null) {
            dir = Files.createTempDirectory("threadline-bench-encryption");
        } else {
            Files.createDirectories(dir);
        }
        Path plainFile = dir.resolve("plain.db");
        Path sealedFile = dir.resolve("sealed.db");
        for (Path f : List.of(plainFile, sealedFile)) {
            if (Files.exists(f)) {
                err.println("threadline bench encryption: " + f + " exists already; give an empty --dir");
                return 2;
            }
        }
        Path keyring = keyring(dir.resolve("keyring.json"));
        SqliteStateStore.Options options = SqliteStateStore.Options.defaults().withSynchronous(sync);
        Variant plain = open("plain", SqliteStateStore.open(plainFile, options), messages);
        Variant sealed = open("sealed", SqliteStateStore.open(sealedFile, options.withKeys(KeyProviders.keyring(keyring))), messages);
        try {
            run(plain, sealed, steps, rounds, out, v -> null);
        } finally {
            plain.tl.close();
            sealed.tl.close();
        }
        Stored p = stored(plainFile);
        Stored s = stored(sealedFile);
        print(out, sync, messages, steps, rounds, plain, sealed, p, s);
        printSealing(out, sealOnly(SessionSteps.payloads(Math.max(1_000, steps))));
        return 0;
    }

    /**
     * The seal alone, in this process, of the conversation's event payloads (as JSON, as the store seals them) under one
     * data key: the median and mean nanoseconds to seal one, and to open one, after untimed passes until the JIT is quiet.
     */
    record SealOnly(int payloads, double meanBytes, double sealMedianNanos, double openMedianNanos) {}

    static SealOnly sealOnly(List<String> json) throws Exception {
        byte[] kek = new byte[32];
        new SecureRandom().nextBytes(kek);
        List<WrappedDataKey> kept = new ArrayList<>();
        DataKeys keys = new DataKeys() {
            @Override
            public boolean keepsDataKeys() {
                return true;
            }

            @Override
            public synchronized List<WrappedDataKey> dataKeys(String tenant) {
                return List.copyOf(kept);
            }

            @Override
            public synchronized boolean addDataKey(WrappedDataKey key) {
                return kept.add(key);
            }
        };
        PayloadSealer sealer = new PayloadSealer(KeyProviders.environment(Map.of("THREADLINE_KEK",
                Base64.getEncoder().encodeToString(kek))), keys);
        List<byte[]> plain = new ArrayList<>();
        long bytes = 0;
        for (String j : json) {
            byte[] b = j.getBytes(StandardCharsets.UTF_8);
            plain.add(b);
            bytes += b.length;
        }
        byte[] place = "event\u0000default\u0000s\u00001".getBytes(StandardCharsets.UTF_8);
        byte[][] sealed = new byte[plain.size()][];
        JitWarmUp.run(2_000, 200_000, i -> {
            byte[] p = plain.get(i % plain.size());
            sealer.open("default", sealer.seal("default", p, place), place);
        });
        Samples seal = new Samples();
        Samples open = new Samples();
        for (int i = 0; i < plain.size(); i++) {
            long t0 = System.nanoTime();
            sealed[i] = sealer.seal("default", plain.get(i), place);
            seal.add(System.nanoTime() - t0);
        }
        for (byte[] s : sealed) {
            long t0 = System.nanoTime();
            sealer.open("default", s, place);
            open.add(System.nanoTime() - t0);
        }
        return new SealOnly(plain.size(), (double) bytes / plain.size(), seal.medianMicros() * 1000, open.medianMicros() * 1000);
    }

    private static void printSealing(PrintStream out, SealOnly s) {
        out.printf(Locale.ROOT, "%nthe seal alone, in process (AES-256-GCM, %,d event payloads of %.0f bytes on average):"
                + " seal %.0f ns, open %.0f ns (medians)%n", s.payloads(), s.meanBytes(), s.sealMedianNanos(), s.openMedianNanos());
    }

    private static Variant open(String name, dev.threadline.core.store.StateStore store, int messages) {
        Threadline tl = Threadline.builder().store(store).build();
        return new Variant(name, tl, SessionSteps.prefill(tl, "encryption-" + name, messages, () -> { }), messages);
    }

    /**
     * The warm-up, then the timed rounds alternating the two (which goes first alternates too); {@code held} reads the
     * bytes a variant's session holds (null when not measured), before and after each of its blocks.
     */
    private static void run(Variant plain, Variant sealed, int steps, int rounds, PrintStream out,
                            java.util.function.Function<Variant, Long> held) throws Exception {
        int least = Math.min(2_000, steps);
        JitWarmUp.Outcome warmed = JitWarmUp.run(least, steps < 100 ? least : 20_000, i -> {
            step(plain);
            step(sealed);
        });
        out.printf(Locale.ROOT, "warm-up: %s%n", warmed.describe());
        for (int r = 0; r < rounds; r++) {
            Variant first = r % 2 == 0 ? plain : sealed;
            for (Variant v : List.of(first, first == plain ? sealed : plain)) {
                Long before = held.apply(v);
                block(v, steps);
                Long after = held.apply(v);
                if (before != null && after != null) {
                    v.heldGrowth += after - before;
                }
            }
        }
    }

    private static void step(Variant v) {
        v.steps.step(v.session, v.next++);
    }

    /** One timed block of {@code n} steps of {@code v}: each step's wall time, the whole block's process CPU time. */
    private static void block(Variant v, int n) {
        List<List<Event>> events = SessionSteps.decided(v.next, n);
        Samples round = new Samples();
        long c0 = processCpuNanos();
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            v.steps.step(v.session, v.next++, events.get(i));
            long took = System.nanoTime() - t0;
            v.wall.add(took);
            round.add(took);
        }
        v.cpuNanos += processCpuNanos() - c0;
        v.timedSteps += n;
        for (List<Event> e : events) {
            v.timedEvents += e.size();
        }
        v.roundMedians.add(round.medianMicros());
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** What a file holds after a truncating checkpoint: its events, the bytes of its payload columns, its size. */
    record Stored(long events, long payloadBytes, long fileBytes, long textRows) {
        double payloadPerEvent() {
            return (double) payloadBytes / events;
        }

        double filePerEvent() {
            return (double) fileBytes / events;
        }
    }

    static Stored stored(Path file) throws Exception {
        if (!SqliteFiles.truncateWal(file)) {
            throw new IllegalStateException("the checkpoint of " + file + " did not finish");
        }
        try (Connection c = SqliteFiles.open(file); Statement st = c.createStatement()) {
            long events = single(st, "SELECT count(*) FROM events");
            long text = single(st, "SELECT count(*) FROM journal_text");
            long payload = single(st, "SELECT coalesce(sum(length(payload)), 0) FROM events")
                    + single(st, "SELECT coalesce(sum(length(payloads)), 0) FROM segments")
                    + single(st, "SELECT coalesce(sum(length(payload)), 0) FROM snapshots");
            return new Stored(events, payload, SqliteFiles.size(file), text);
        }
    }

    private static long single(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void print(PrintStream out, SqliteStateStore.Synchronous sync, int messages, int steps, int rounds,
                              Variant plain, Variant sealed, Stored p, Stored s) {
        printTimes(out, String.format(Locale.ROOT, "SQLite, synchronous=%s; sessions prefilled with %,d messages", sync, messages),
                steps, rounds, plain, sealed);
        printStored(out, p, s);
    }

    private static void printTimes(PrintStream out, String what, int steps, int rounds, Variant plain, Variant sealed) {
        out.printf(Locale.ROOT, "%s; %d rounds of %,d steps each, alternating%n%n", what, rounds, steps);
        out.println("| store | step median µs | p99 µs | round medians µs | process CPU per step µs |");
        out.println("| --- | ---: | ---: | --- | ---: |");
        for (Variant v : List.of(plain, sealed)) {
            List<String> medians = new ArrayList<>();
            for (double m : v.roundMedians) {
                medians.add(String.format(Locale.ROOT, "%.0f", m));
            }
            out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %s | %.1f |%n", v.name, v.wall.medianMicros(), v.wall.p99Micros(),
                    String.join(", ", medians), v.cpuNanos / 1000.0 / v.timedSteps);
        }
        out.printf(Locale.ROOT, "%nsealed / plain: step median %.3f, CPU per step %.3f%n%n",
                sealed.wall.medianMicros() / plain.wall.medianMicros(),
                ((double) sealed.cpuNanos / sealed.timedSteps) / ((double) plain.cpuNanos / plain.timedSteps));
    }

    private static void printStored(PrintStream out, Stored p, Stored s) {
        out.println("| store | events | payload bytes per event | file bytes per event | full-text index rows |");
        out.println("| --- | ---: | ---: | ---: | ---: |");
        out.printf(Locale.ROOT, "| plain | %,d | %.1f | %.1f | %,d |%n", p.events(), p.payloadPerEvent(), p.filePerEvent(), p.textRows());
        out.printf(Locale.ROOT, "| sealed | %,d | %.1f | %.1f | %,d |%n", s.events(), s.payloadPerEvent(), s.filePerEvent(), s.textRows());
        out.printf(Locale.ROOT, "%nsealed - plain per event: payload %+.1f B, file %+.1f B%n",
                s.payloadPerEvent() - p.payloadPerEvent(), s.filePerEvent() - p.filePerEvent());
    }

    /** A keyring whose {@code *} entry serves every tenant with one fresh random key. */
    static Path keyring(Path file) throws Exception {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Files.writeString(file, "{\"tenants\": {\"*\": {\"active\": \"bench-1\", \"keys\": {\"bench-1\": \""
                + Base64.getEncoder().encodeToString(key) + "\"}}}}");
        return file;
    }

    private static SqliteStateStore.Synchronous synchronous(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "full" -> SqliteStateStore.Synchronous.FULL;
            case "normal" -> SqliteStateStore.Synchronous.NORMAL;
            default -> throw new IllegalArgumentException("--synchronous '" + s + "' is neither full nor normal");
        };
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int count(String s, String option, int least) {
        try {
            int n = Integer.parseInt(s);
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the error below
        }
        throw new IllegalArgumentException(option + " '" + s + "' is not a whole number of at least " + least);
    }
}
