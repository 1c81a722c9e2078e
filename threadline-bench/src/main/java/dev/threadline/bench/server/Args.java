package dev.threadline.bench.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** What the {@code turn-cost} and {@code soak} commands share: reading their options, removing their work folder. Thread-safe. */
final class Args {
    private Args() {}

    /** The value after option {@code option} at {@code i}. */
    static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    /** {@code v} as a whole number of at least {@code min}, or an error naming {@code option}. */
    static int count(String v, String option, int min) {
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

    /** {@code v} as a positive number (decimals allowed), or an error naming {@code option}. */
    static double positive(String v, String option) {
        try {
            double d = Double.parseDouble(v);
            if (d > 0 && Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // said below
        }
        throw new IllegalArgumentException(option + " must be a positive number, was '" + v + "'");
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
