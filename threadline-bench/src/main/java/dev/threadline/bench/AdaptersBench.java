package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import dev.threadline.bench.alt.ThreadlineChatMemoryContender;
import dev.threadline.bench.alt.ThreadlineSpringAiContender;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.bench.kit.SqliteFiles;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code threadline bench adapters}: one step through each framework adapter (LangChain4j's
 * {@code MessageWindowChatMemory} on {@code ThreadlineChatMemoryStore}, {@code ThreadlineChatMemory}, Spring AI's
 * {@code MessageWindowChatMemory} on {@code ThreadlineChatMemoryRepository}) beside Threadline's own step
 * ({@code RawSteps.update} of the message's events) on the same SQLite settings, at several history lengths
 * (issue 27, target 1: within 2× Threadline's own step and flat from 1,000 to 10,000 messages).
 *
 * <p>Each contender has its own fresh file. Before the first length every contender takes untimed steps on a
 * session of its own (the JIT); at each length each contender's session is prefilled, takes untimed steps, then
 * the timed steps run in rounds that alternate between the contenders, so a load on the shared machine falls on
 * all of them alike. The figures are medians (and p90) of the single steps.
 */
final class AdaptersBench {
    private AdaptersBench() {}

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "threadline-bench-adapters");
        List<Integer> lengths = List.of(1_000, 5_000, 10_000);
        int warm = 2_000;
        int untimed = 100;
        int rounds = 5;
        int steps = 40;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(value(args, ++i));
                case "--lengths" -> lengths = Arrays.stream(value(args, ++i).split(",")).map(s -> positive("--lengths", s)).toList();
                case "--rounds" -> rounds = positive("--rounds", value(args, ++i));
                case "--steps" -> steps = positive("--steps", value(args, ++i));
                case "--warm-up" -> warm = positive("--warm-up", value(args, ++i));
                case "--smoke" -> {
                    lengths = List.of(8, 40);
                    warm = 8;
                    untimed = 4;
                    rounds = 2;
                    steps = 4;
                }
                default -> {
                    err.println("threadline bench adapters: unknown option '" + args[i] + "' (try threadline bench --help)");
                    return 2;
                }
            }
        }
        dir = dir.toAbsolutePath();
        Files.createDirectories(dir);
        String load0 = loadAverage();
        long t0 = System.nanoTime();
        List<Contender> contenders = new ArrayList<>();
        try {
            contenders.add(new ThreadlineContender(StoreUrl.parse("sqlite:" + fresh(dir, "adapters.db")), "own", false));
            contenders.add(new ThreadlineChatMemoryContender(fresh(dir, "adapters-lc4j-store.db"), true));
            contenders.add(new ThreadlineChatMemoryContender(fresh(dir, "adapters-lc4j-memory.db"), false));
            contenders.add(new ThreadlineSpringAiContender(fresh(dir, "adapters-spring-ai.db")));
            int[] next = new int[contenders.size()];
            for (int c = 0; c < contenders.size(); c++) { // the JIT: untimed steps on a session of each contender's own
                contenders.get(c).prefill("warm", BenchMessage.range(0, 200));
                for (int s = 0; s < warm; s++) {
                    contenders.get(c).step("warm", BenchMessage.at(200 + s));
                }
            }
            double[][] median = new double[contenders.size()][lengths.size()];
            double[][] p90 = new double[contenders.size()][lengths.size()];
            for (int l = 0; l < lengths.size(); l++) {
                int length = lengths.get(l);
                String session = "h" + length;
                Samples[] samples = new Samples[contenders.size()];
                for (int c = 0; c < contenders.size(); c++) {
                    contenders.get(c).prefill(session, BenchMessage.range(0, length));
                    next[c] = length;
                    for (int s = 0; s < untimed; s++) {
                        contenders.get(c).step(session, BenchMessage.at(next[c]++));
                    }
                    samples[c] = new Samples();
                }
                for (int r = 0; r < rounds; r++) {
                    for (int c = 0; c < contenders.size(); c++) {
                        for (int s = 0; s < steps; s++) {
                            BenchMessage m = BenchMessage.at(next[c]++);
                            long start = System.nanoTime();
                            contenders.get(c).step(session, m);
                            samples[c].add(System.nanoTime() - start);
                        }
                    }
                }
                for (int c = 0; c < contenders.size(); c++) {
                    median[c][l] = samples[c].medianMicros();
                    p90[c][l] = samples[c].quantileMicros(0.90);
                }
            }
            print(out, contenders, lengths, median, p90, rounds * steps, untimed, warm);
            out.printf(Locale.ROOT, "%nrun: %.0f s; load average %s at its start, %s at its end (%d cores, shared)%n",
                    (System.nanoTime() - t0) / 1e9, load0, loadAverage(), Runtime.getRuntime().availableProcessors());
        } finally {
            for (Contender c : contenders) {
                c.close();
            }
        }
        return 0;
    }

    private static void print(PrintStream out, List<Contender> cs, List<Integer> lengths, double[][] median, double[][] p90,
                              int timed, int untimed, int warm) {
        out.printf(Locale.ROOT, "%nOne step's median ms (p90), %d timed steps per point after %d untimed ones (and %d before the"
                + " first length); × own: the median over Threadline's own step at the same length; × first: over the same"
                + " contender at the first length.%n%n", timed, untimed, warm);
        StringBuilder head = new StringBuilder("| contender |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (int length : lengths) {
            head.append(String.format(Locale.ROOT, " %,d messages | × own | × first |", length));
            rule.append(" ---: | ---: | ---: |");
        }
        out.println(head);
        out.println(rule);
        for (int c = 0; c < cs.size(); c++) {
            StringBuilder row = new StringBuilder("| " + cs.get(c).name() + " |");
            for (int l = 0; l < lengths.size(); l++) {
                row.append(String.format(Locale.ROOT, " %.3f (%.3f) | %.2f | %.2f |", median[c][l] / 1e3, p90[c][l] / 1e3,
                        median[c][l] / median[0][l], median[c][l] / median[c][0]));
            }
            out.println(row);
        }
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static Path fresh(Path dir, String name) throws Exception {
        Path f = dir.resolve(name);
        SqliteFiles.delete(f);
        if (name.equals("adapters.db")) {
            SqliteFiles.delete(dir.resolve("adapters-own.db"));
        }
        return f;
    }

    private static int positive(String option, String text) {
        try {
            int v = Integer.parseInt(text.trim());
            if (v >= 1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(option + " must be a whole number of at least 1, was '" + text + "'");
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
