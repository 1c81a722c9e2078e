package dev.threadline.bench;

import java.util.ArrayList;
import java.util.List;

/** Computes Threadline's targets from one run's figures (all ratios of numbers from the same run). */
final class Targets {
    private Targets() {}

    static List<Results.Target> of(String threadline, List<CurvePoint> curves, List<ThroughputPoint> throughput,
                                   Results.Raw raw) {
        List<Results.Target> out = new ArrayList<>();
        List<CurvePoint> mine = curves.stream().filter(p -> p.contender().equals(threadline)).toList();
        if (mine.size() < 2) {
            return out;
        }
        CurvePoint shortest = mine.getFirst();
        CurvePoint longest = mine.getLast();
        String lengths = " at " + longest.historyLength() + " vs " + shortest.historyLength() + " messages";
        out.add(atMost("bytes written per step" + lengths, ratio(longest.walBytesPerStep(), shortest.walBytesPerStep()), 1.5,
                longest.walBytesPerStep() + " vs " + shortest.walBytesPerStep() + " WAL bytes"));
        out.add(atMost("median time per step" + lengths, ratio(longest.medianMicros(), shortest.medianMicros()), 1.5,
                longest.medianMicros() + " vs " + shortest.medianMicros() + " us"));
        Double limit = raw.insertsPerSecond();
        out.add(atLeast("step throughput, 1 session, StateManager.update / raw insert+commit limit (median of per-round ratios)",
                pairedRatio(raw.threadlineRounds(), raw.insertRounds()), 0.8,
                raw.threadlineStepsPerSecond() + " vs " + limit + " per s (medians)"));
        out.add(atLeast("step throughput, 1 session, Session.update (mailbox) / raw insert+commit limit (median of per-round ratios)",
                pairedRatio(raw.mailboxRounds(), raw.insertRounds()), 0.8,
                raw.mailboxStepsPerSecond() + " vs " + limit + " per s (medians)"));
        List<ThroughputPoint> mineTp = throughput.stream().filter(p -> p.contender().equals(threadline)).toList();
        for (int i = 0; i < mineTp.size(); i++) {
            ThroughputPoint p = mineTp.get(i);
            Double beside = i < raw.insertsBesideThroughput().size() ? raw.insertsBesideThroughput().get(i) : null;
            if (p.concurrency() >= 16) {
                out.add(atLeast("step throughput, " + p.concurrency() + " sessions / raw insert+commit limit measured around it",
                        ratio(p.stepsPerSecond(), beside), 1.0, p.stepsPerSecond() + " vs " + beside + " per s"));
            }
        }
        Double rawRead = longest.rawReadMillis();
        out.add(atMost("cold load / raw read-and-parse, " + longest.historyLength() + " messages",
                ratio(longest.coldLoadMillis(), rawRead), 2.0, longest.coldLoadMillis() + " vs " + rawRead + " ms"));
        out.add(atMost("heap per cached session / serialized size, " + longest.historyLength() + " messages",
                longest.heapPerSerializedByte(), 2.0, longest.heapBytes() + " vs " + longest.serializedBytes() + " bytes"));
        return out;
    }

    /**
     * The median over rounds of (this round's rate / the same round's raw rate): the disk's speed
     * drifts between rounds on a shared machine, and pairing each round with its neighbour cancels it.
     */
    static Double pairedRatio(List<Double> mine, List<Double> raw) {
        if (mine == null || raw == null || mine.isEmpty() || mine.size() != raw.size()) {
            return null;
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < mine.size(); i++) {
            ratios.add(mine.get(i) / raw.get(i));
        }
        return LimitRun.median(ratios);
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    private static Results.Target atMost(String what, Double measured, double bound, String detail) {
        return new Results.Target(what, measured, bound, "<=", measured == null ? null : measured <= bound, detail);
    }

    private static Results.Target atLeast(String what, Double measured, double bound, String detail) {
        return new Results.Target(what, measured, bound, ">=", measured == null ? null : measured >= bound, detail);
    }
}
