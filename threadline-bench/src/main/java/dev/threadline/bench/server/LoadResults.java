package dev.threadline.bench.server;

import java.util.List;

/**
 * Everything one load run measured, as written to {@code results.json}. Latencies in milliseconds
 * from each request's intended start, rates in turns per second, memory in bytes.
 *
 * @param machine    where it ran
 * @param command    the command line
 * @param server     how the server ran (a child process of the launcher, or in-process)
 * @param config     the sizes
 * @param saturation the closed loops that found the saturation rates
 * @param levels     per fraction of the HTTP saturation: the HTTP and the in-process measurement at that rate
 * @param hot        one hot session alone and beside the quiet ones
 * @param streams    idle SSE streams and in-process observers
 * @param seconds    the run's wall time
 */
record LoadResults(Machine machine, String command, String server, LoadConfig config, Saturation saturation,
                   List<Level> levels, Hot hot, Streams streams, double seconds) {

    /** The machine and JVM. */
    record Machine(int cpus, long memoryBytes, String jdk, String os, String note) {
        static Machine here() {
            long mem = 0;
            if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean os) {
                mem = os.getTotalMemorySize();
            }
            return new Machine(Runtime.getRuntime().availableProcessors(), mem,
                    System.getProperty("java.vm.name") + " " + Runtime.version(),
                    System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                    "load generator, server and in-process runtime share these cores (and other builds may run)");
        }
    }

    /**
     * @param httpRate       the saturation over HTTP, which the levels are fractions of: the highest arrival rate of the
     *                       search that was kept up with (no errors, answers at 95 % of the rate or more)
     * @param inProcessRate  the same through the Java API
     * @param httpSearch     the search's steps over HTTP (open model, each on the same sessions)
     * @param inProcessSearch the same in-process
     * @param http           the closed loop over HTTP ({@code saturationClients} clients back to back): the search's start
     * @param inProcess      the same closed loop through the Java API
     * @param httpOneSession one client on one session, back to back over HTTP (a session runs its turns one at a time)
     * @param inProcessOneSession the same in-process
     */
    record Saturation(double httpRate, double inProcessRate, List<OpenLoop.Measurement> httpSearch,
                      List<OpenLoop.Measurement> inProcessSearch, OpenLoop.Measurement http, OpenLoop.Measurement inProcess,
                      OpenLoop.Measurement httpOneSession, OpenLoop.Measurement inProcessOneSession) {}

    /** One open-model level: {@code fraction} of the HTTP saturation, offered to both. */
    record Level(double fraction, double rate, OpenLoop.Measurement http, OpenLoop.Measurement inProcess) {}

    /**
     * @param rate          the hot session's arrival rate
     * @param trickleRate   the quiet sessions' arrival rate (each turn to a quiet session not used before)
     * @param quietSessions how many were seeded (one user message and reply each, through the Java API, before the server started)
     * @param seedSeconds   how long seeding took
     * @param http          over HTTP
     * @param inProcess     through the Java API
     */
    record Hot(double rate, double trickleRate, int quietSessions, double seedSeconds, HotRun http, HotRun inProcess) {}

    /**
     * @param alone          the hot session on a fresh store
     * @param beside         the hot session on the store of the quiet sessions, while they trickle
     * @param quiet          the trickle's turns
     * @param heapAloneBytes heap after GC at the end of the run alone
     * @param heapBesideBytes heap after GC at the end of the run beside
     * @param rssAloneBytes  RSS then
     * @param rssBesideBytes RSS then
     */
    record HotRun(OpenLoop.Measurement alone, OpenLoop.Measurement beside, OpenLoop.Measurement quiet,
                  long heapAloneBytes, long heapBesideBytes, long rssAloneBytes, long rssBesideBytes) {}

    /**
     * @param count     streams asked for
     * @param http      the server's SSE streams
     * @param inProcess observers in the Java API: a virtual thread each, blocked in {@code Session.awaitEvents} as
     *                  the server's stream handler is
     */
    record Streams(int count, StreamRun http, StreamRun inProcess) {}

    /**
     * Memory of the serving process before (the sessions created, no stream) and with the streams
     * open, and the difference per stream.
     *
     * @param opened        streams that got their first bytes (200 and the opening comment)
     * @param failed        the rest, by kind
     * @param openSeconds   how long opening them all took
     */
    record StreamRun(int opened, java.util.Map<String, Integer> failed, double openSeconds, long heapBeforeBytes,
                     long heapWithBytes, long rssBeforeBytes, long rssWithBytes, double heapPerStreamBytes,
                     double rssPerStreamBytes) {}
}
