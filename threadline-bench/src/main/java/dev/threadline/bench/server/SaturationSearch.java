package dev.threadline.bench.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The open-model search for saturation: from 60 % of the better of the two closed loops' rates, up by
 * 40 % a step while each step is kept up with ({@link OpenLoop.Measurement#keptUp}), then two halvings
 * of the interval between the last rate kept up with and the first not. With no step kept up, the
 * first step's steady answer rate. Not thread-safe: one search at a time.
 */
final class SaturationSearch {
    private final LoadRun run;

    SaturationSearch(LoadRun run) {
        this.run = run;
    }

    /** The highest rate kept up with, and the steps that found it. */
    record Found(double rate, List<OpenLoop.Measurement> steps) {}

    /** Searches {@code t}'s saturation rate on fresh sessions, starting from {@code closedRate}. */
    Found search(Turns t, double closedRate) throws Exception {
        LoadConfig config = run.config;
        List<String> ids = LoadRun.ids(t.name() + "-search", config.sessionsPerLevel());
        t.create(ids);
        List<OpenLoop.Measurement> steps = new ArrayList<>();
        double good = 0;
        double bad = 0;
        double r = run.rate(0.6 * closedRate);
        for (int i = 0; i < config.searchSteps(); i++) {
            OpenLoop.Measurement m = step(t, ids, r);
            steps.add(m);
            if (!m.keptUp()) {
                bad = r;
                break;
            }
            good = r;
            double next = run.rate(r * 1.4);
            if (next <= r) {
                break; // at the cap
            }
            r = next;
        }
        for (int i = 0; i < 2 && good > 0 && bad > 0; i++) {
            double mid = run.rate((good + bad) / 2);
            OpenLoop.Measurement m = step(t, ids, mid);
            steps.add(m);
            if (m.keptUp()) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        double found = good > 0 ? good : Math.max(0.5, steps.getFirst().steadyPerSec());
        run.step(String.format(Locale.ROOT, "  %s saturation: %.1f turns/s%s", t.name(), found,
                bad == 0 && config.maxRate() == 0 ? " (every step kept up: at least this)" : ""));
        return new Found(found, steps);
    }

    private OpenLoop.Measurement step(Turns t, List<String> ids, double rate) throws Exception {
        OpenLoop.Measurement m = OpenLoop.open(t.name() + " search " + rate, rate, LoadRun.seconds(run.config.searchSeconds()),
                run.drain(), n -> t.turn(ids.get((int) (n % ids.size())), LoadRun.text(n)));
        run.step(String.format(Locale.ROOT, "  search %.1f turns/s: steady %.1f, p50 %.1f, p99 %.1f ms, errors %s -> %s", rate,
                m.steadyPerSec(), m.p50Millis(), m.p99Millis(), m.errors(), m.keptUp() ? "kept up" : "not kept up"));
        return m;
    }
}
