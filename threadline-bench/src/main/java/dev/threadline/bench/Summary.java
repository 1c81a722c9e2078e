package dev.threadline.bench;

import java.io.PrintStream;
import java.util.Locale;

/** Prints a run's tables as Markdown (the form docs/benchmarks.md uses). */
final class Summary {
    private Summary() {}

    static void print(Results r, PrintStream out) {
        out.println();
        out.println("| contender | messages | steps | WAL bytes/step | median step us | p99 step us | cold load ms | heap bytes | stored bytes |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (CurvePoint p : r.curves()) {
            out.printf(Locale.ROOT, "| %s | %,d | %d | %s | %,.0f | %,.0f | %s | %s | %,d |%n", p.contender(), p.historyLength(),
                    p.steps(), num(p.walBytesPerStep(), "%,.0f"), p.medianMicros(), p.p99Micros(),
                    num(p.coldLoadMillis(), "%,.2f"), p.heapBytes() == null ? "n/a" : String.format(Locale.ROOT, "%,d", p.heapBytes()),
                    p.serializedBytes());
        }
        out.println();
        out.println("| contender | sessions | steps | seconds | steps/s |");
        out.println("| --- | ---: | ---: | ---: | ---: |");
        for (ThroughputPoint p : r.throughput()) {
            out.printf(Locale.ROOT, "| %s | %d | %,d | %.2f | %,.0f |%n", p.contender(), p.concurrency(), p.steps(), p.seconds(),
                    p.stepsPerSecond());
        }
        out.println();
        out.printf(Locale.ROOT, "raw limit: %s single-row inserts+commits per second (rounds %s); Threadline, 1 session, same rounds:"
                + " StateManager.update %s steps/s (%s), Session.update %s steps/s (%s)%nraw read-and-parse ms:",
                num(r.raw().insertsPerSecond(), "%,.0f"), rounds(r.raw().insertRounds()),
                num(r.raw().threadlineStepsPerSecond(), "%,.0f"), rounds(r.raw().threadlineRounds()),
                num(r.raw().mailboxStepsPerSecond(), "%,.0f"), rounds(r.raw().mailboxRounds()));
        r.raw().readAndParse().forEach(x -> out.printf(Locale.ROOT, " %d msgs %.2f;", x.historyLength(), x.millis()));
        out.println();
        out.println();
        out.println("| target | measured | bound | met | detail |");
        out.println("| --- | ---: | ---: | --- | --- |");
        for (Results.Target t : r.targets()) {
            out.printf(Locale.ROOT, "| %s | %s | %s %.2f | %s | %s |%n", t.what(), num(t.measured(), "%.2f"), t.comparison(),
                    t.bound(), t.met() == null ? "n/a" : t.met() ? "yes" : "no", t.detail());
        }
    }

    private static String rounds(java.util.List<Double> xs) {
        return xs.stream().map(x -> String.format(Locale.ROOT, "%,.0f", x)).collect(java.util.stream.Collectors.joining(", "));
    }

    private static String num(Double v, String format) {
        return v == null ? "n/a" : String.format(Locale.ROOT, format, v);
    }
}
