package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code threadline bench}: the whole-run benchmark (default) or the JMH microbenchmarks.
 *
 * <pre>
 * threadline bench [--store sqlite:/path/file.db | memory:] [--quick | --smoke] [--out DIR] [--no-alternatives]
 * threadline bench --store postgresql|redis|redis-cluster|URL [--store ...] [--quick | --smoke] [--out DIR]
 * threadline bench frameworks [--dir DIR] [--quick | --smoke] [--out DIR]
 * threadline bench adapters [--dir DIR] [--lengths 1000,5000,10000] [--rounds N] [--steps N] [--warm-up N] [--smoke]
 * threadline bench jmh [JMH options]      e.g. jmh -f 1 -wi 3 -i 5 ReducerBench
 * threadline bench serve-load [--out DIR] [--smoke]   the load benchmark of threadline serve
 * threadline bench encryption [--dir DIR] [--steps N] [--rounds N] [--synchronous full|normal]   (see {@link EncryptionOverhead})
 * threadline bench stored-form [--store sqlite:PATH | postgresql://…]   (see {@link StoredFormRun})
 * threadline bench step-parts [--store postgresql|redis|redis-cluster|URL] [--messages N] [--rounds N]   (see {@link StepParts})
 * threadline bench turn-cost [--sizes 10,1000,10000,50000] [--turns N] [--store sqlite:PATH|memory:] [--http] [--smoke]
 * threadline bench soak [--minutes 40] [--sessions 200] [--clients 4] [--window-seconds 60] [--warm-up-seconds 30] [--out DIR]
 * threadline bench overload [--store postgresql://…|sqlite:PATH] [--seconds 120] [--load 1.2] [--out DIR]   two nodes, one killed
 * </pre>
 */
public final class BenchMain {
    static {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }

    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("jmh")) {
            org.openjdk.jmh.Main.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("serve-load")) {
            System.exit(dev.threadline.bench.server.ServeLoad.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && args[0].equals("step-parts")) {
            System.exit(StepParts.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && args[0].equals("turn-cost")) { // a turn's cost against the session's size (issue 39)
            System.exit(dev.threadline.bench.server.TurnCost.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && args[0].equals("soak")) { // threadline serve under a closed loop for minutes (issue 39)
            System.exit(dev.threadline.bench.server.Soak.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && args[0].equals("overload")) { // two nodes over saturation, one SIGKILLed half-way (issue 25)
            System.exit(dev.threadline.bench.server.Overload.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && args[0].equals("encryption")) { // encryption at rest against the same store without keys (issue 24)
            System.exit(EncryptionOverhead.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && args[0].equals("stored-form")) {
            System.exit(StoredFormRun.main(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the whole-run benchmark; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length > 0 && args[0].equals("adapters")) { // each adapter's step beside Threadline's own (issue 27)
            return AdaptersBench.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("frameworks")) { // each framework's own store beside it on Threadline
            return FrameworksBench.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (SharedBench.wanted(args)) { // PostgreSQL / Redis, each beside its raw floor
            return SharedBench.run(args, out, err);
        }
        String store = "sqlite:" + Path.of(System.getProperty("java.io.tmpdir"), "threadline-bench", "bench.db");
        Path dir = Path.of("bench-results");
        String size = "full";
        boolean alternatives = true;
        boolean progress = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--store" -> store = value(args, ++i, "--store");
                case "--out" -> dir = Path.of(value(args, ++i, "--out"));
                case "--quick" -> size = "quick";
                case "--smoke" -> size = "smoke";
                case "--no-alternatives" -> alternatives = false;
                case "--no-progress" -> progress = false;
                case "-h", "--help" -> {
                    out.print(usage());
                    return 0;
                }
                default -> {
                    err.println("threadline bench: unknown option '" + args[i] + "' (try --help)");
                    return 2;
                }
            }
        }
        StoreUrl url = StoreUrl.parse(store);
        Path outDir = dir.toAbsolutePath();
        BenchConfig config = switch (size) {
            case "quick" -> BenchConfig.quick(url, outDir);
            case "smoke" -> BenchConfig.smoke(url, outDir);
            default -> BenchConfig.full(url, outDir);
        };
        if (!alternatives) {
            config = new BenchConfig(config.store(), config.out(), config.historyLengths(), config.stepsPerLength(),
                    config.stepBudgetMillis(), config.concurrency(), config.turnsPerSession(), config.rawInserts(),
                    config.loadRepeats(), false);
        }
        Results r = new WholeRun(config, new Progress(err, progress)).run("threadline bench " + String.join(" ", args));
        Summary.print(r, out);
        out.printf(Locale.ROOT, "results: %s (and %s)%n", outDir.resolve("results.json"), String.join(", ", Plots.FILES));
        return 0;
    }

    /**
     * The usage text, from {@code usage.txt} beside this class: the {@code ./threadline} script prints the
     * same file for {@code bench --help} without building the bench's jar first.
     */
    static String usage() {
        try (var in = BenchMain.class.getResourceAsStream("usage.txt")) {
            if (in == null) {
                throw new IllegalStateException("usage.txt is missing beside " + BenchMain.class.getName());
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
