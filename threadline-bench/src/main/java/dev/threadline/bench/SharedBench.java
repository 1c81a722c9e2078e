package dev.threadline.bench;

import dev.threadline.core.json.Json;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code threadline bench --store postgresql|redis|redis-cluster|URL ...}: the shared stores' benchmark
 * ({@link SharedRun}), each store beside its raw floor on the same server. {@code --store} may be given
 * several times; the bare names start a throwaway server (the TCK's launchers) for the run.
 */
final class SharedBench {
    private SharedBench() {}

    /** Whether the arguments name a shared store, so that this benchmark, not the SQLite one, runs. */
    static boolean wanted(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--store") && shared(args[i + 1])) {
                return true;
            }
        }
        return false;
    }

    static boolean shared(String store) {
        return List.of("postgresql", "redis", "redis-cluster").contains(store) || store.startsWith("postgresql://")
                || store.startsWith("postgres://") || store.startsWith("redis://") || store.startsWith("redis-cluster://");
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        List<String> stores = new ArrayList<>();
        Path dir = Path.of("bench-results");
        String size = "full";
        boolean progress = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--store" -> {
                    String s = i + 1 < args.length ? args[++i] : "";
                    if (!shared(s)) {
                        err.println("threadline bench: --store '" + s + "' cannot run beside a shared store; give postgresql,"
                                + " redis, redis-cluster or their URLs (postgresql://…, redis://…, redis-cluster://…)");
                        return 2;
                    }
                    stores.add(s);
                }
                case "--out" -> {
                    if (i + 1 >= args.length) {
                        err.println("threadline bench: --out needs a directory");
                        return 2;
                    }
                    dir = Path.of(args[++i]);
                }
                case "--quick" -> size = "quick";
                case "--smoke" -> size = "smoke";
                case "--no-progress" -> progress = false;
                default -> {
                    err.println("threadline bench: unknown option '" + args[i] + "' for the shared stores (try --help)");
                    return 2;
                }
            }
        }
        Path outDir = dir.toAbsolutePath();
        SharedConfig config = switch (size) {
            case "quick" -> SharedConfig.quick(stores, outDir);
            case "smoke" -> SharedConfig.smoke(stores, outDir);
            default -> SharedConfig.full(stores, outDir);
        };
        Progress bar = new Progress(err, progress);
        List<SharedResults.Store> done = new ArrayList<>();
        for (String s : stores) {
            try (SharedTarget target = open(s)) {
                done.add(new SharedRun(config, bar).run(target));
            }
        }
        SharedResults results = new SharedResults(Results.Machine.here(), "threadline bench " + String.join(" ", args), config, done);
        Files.createDirectories(outDir);
        Files.writeString(outDir.resolve("shared-results.json"),
                Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(results));
        SharedReport.plots(results, outDir);
        SharedReport.print(results, out);
        out.printf(Locale.ROOT, "%nresults: %s (and %s)%n", outDir.resolve("shared-results.json"), String.join(", ", SharedReport.FILES));
        return 0;
    }

    static SharedTarget open(String store) throws Exception {
        return switch (store) {
            case "postgresql" -> PgTarget.start();
            case "redis" -> RedisTarget.start();
            case "redis-cluster" -> RedisTarget.startCluster();
            default -> store.startsWith("redis") ? RedisTarget.at(store) : PgTarget.at(store);
        };
    }
}
