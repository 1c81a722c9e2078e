package dev.threadline.bench.server;

import java.util.List;

/**
 * The sizes of one load run.
 *
 * @param warmupSeconds      closed-loop warm-up of each new JVM or runtime before it is measured
 * @param saturationClients  clients of the closed loop that finds the saturation rate
 * @param saturationSeconds  how long that loop runs
 * @param searchSeconds      each step of the open-model search for the highest rate that is kept up with
 * @param searchSteps        at most this many steps (40 % apart), then two halvings of the interval between the last kept up and the first not
 * @param fractions          the open-model levels, as fractions of the HTTP saturation rate
 * @param levelSeconds       how long each level sends
 * @param sessionsPerLevel   fresh sessions per level; turn n goes to session n mod this
 * @param maxRate            a cap on any arrival rate (the smoke run's "tiny rate"), or 0
 * @param quietSessions      sessions seeded beside the hot one
 * @param hotSeconds         how long the hot session is driven, alone and beside the quiet ones
 * @param hotFraction        the hot session's rate, as a fraction of what one session does back to back
 * @param quietTrickle       the quiet sessions' traffic, as a fraction of the saturation rate (each turn to a
 *                           different quiet session)
 * @param streams            idle SSE streams (and in-process observers) opened at once
 * @param timeoutSeconds     a request unanswered for this long is an error
 */
record LoadConfig(int warmupSeconds, int saturationClients, double saturationSeconds, double searchSeconds, int searchSteps,
                  List<Double> fractions, double levelSeconds, int sessionsPerLevel, double maxRate, int quietSessions,
                  double hotSeconds, double hotFraction, double quietTrickle, int streams, int timeoutSeconds) {

    static final List<Double> FRACTIONS = List.of(0.25, 0.5, 0.75, 0.9, 1.0, 1.2);

    /** The documented run: about 9 minutes on two shared cores. */
    static LoadConfig full() {
        return new LoadConfig(5, 16, 6, 6, 10, FRACTIONS, 10, 256, 0, 10_000, 15, 0.25, 0.1, 1_000, 30);
    }

    /** Seconds, tiny rates, few requests: the harness end to end, figures meaningless. */
    static LoadConfig smoke() {
        return new LoadConfig(0, 2, 0.5, 0.3, 2, FRACTIONS, 0.3, 4, 10, 20, 0.5, 0.25, 0.1, 5, 30);
    }
}
