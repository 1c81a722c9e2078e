package dev.threadline.bench;

import java.util.ArrayList;
import java.util.List;

/** The shared stores' targets of issue 9, as ratios of figures from the same run (reported, not enforced). */
final class SharedTargets {
    private SharedTargets() {}

    static List<Results.Target> of(String kind, List<SharedResults.Point> curves, List<SharedResults.Rate> rates,
                                   String variant, List<SharedResults.Rate> variantRates) {
        List<Results.Target> out = new ArrayList<>();
        if (curves.size() < 2) {
            return out;
        }
        SharedResults.Point first = curves.getFirst();
        SharedResults.Point last = curves.getLast();
        out.add(atMost("median time per step at " + last.historyLength() + " messages / raw floor's median in the same rounds",
                last.medianMicros() / last.rawMedianMicros(), 1.5,
                last.medianMicros() + " vs " + last.rawMedianMicros() + " us"));
        if (last.variantMedianMicros() != null) {
            out.add(atMost("median time per step at " + last.historyLength() + " messages, " + variant.replaceAll(" \\(.*", "")
                    + " / raw floor's median in the same rounds", last.variantMedianMicros() / last.rawMedianMicros(), 1.5,
                    last.variantMedianMicros() + " vs " + last.rawMedianMicros() + " us"));
        }
        out.add(atMost("durable bytes written per step at " + last.historyLength() + " vs " + first.historyLength() + " messages",
                ratio(last.writtenBytesPerStep(), first.writtenBytesPerStep()), 1.5,
                last.writtenBytesPerStep() + " vs " + first.writtenBytesPerStep() + " bytes"));
        out.add(atMost("space held per step at " + last.historyLength() + " vs " + first.historyLength() + " messages",
                ratio(last.heldBytesPerStep(), first.heldBytesPerStep()), 1.5,
                last.heldBytesPerStep() + " vs " + first.heldBytesPerStep() + " bytes"));
        for (SharedResults.Rate r : rates) {
            if (r.sessions() >= 16) {
                out.add(atLeast("step throughput, " + r.sessions() + " sessions / raw single-connection rate around it"
                        + " (median of per-round ratios)", r.ratio(), 1.0, r.stepsPerSecond() + " vs " + r.rawPerSecond() + " per s"));
            }
        }
        for (SharedResults.Rate r : variantRates) {
            if (r.sessions() >= 16) {
                out.add(atLeast("step throughput, " + r.sessions() + " sessions, " + variant.replaceAll(" \\(.*", "")
                        + " / raw single-connection rate around it (median of per-round ratios)", r.ratio(), 1.0,
                        r.stepsPerSecond() + " vs " + r.rawPerSecond() + " per s"));
            }
        }
        // with the store's life inside each load (a pool opened and closed): issue 9 item 8's cold load is the read path,
        // measured by `threadline bench stored-form` (ADR 0033)
        out.add(atMost("cold load, a new store and runtime each / one JSON document of the same events read on a new connection"
                + " and parsed, " + last.historyLength() + " messages",
                ratio(last.coldLoadMillis(), last.documentReadMillis()), 1.5,
                last.coldLoadMillis() + " vs " + last.documentReadMillis() + " ms"));
        return out;
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
