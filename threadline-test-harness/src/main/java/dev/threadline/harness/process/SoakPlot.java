package dev.threadline.harness.process;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The soak's resource curves as one SVG: four panels (heap after GC, threads, file descriptors, database
 * connections) over the run's seconds, one line per role (A, B: every incarnation of a role on one line, so
 * a restart shows as a drop) and one for the database. Stateless.
 */
final class SoakPlot {
    private static final int W = 900;
    private static final int PANEL = 150;
    private static final int LEFT = 70;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c"};

    private SoakPlot() {}

    static String svg(List<ChaosSoak.Sample> samples) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                W, 4 * (PANEL + 30) + 30));
        long last = samples.stream().mapToLong(ChaosSoak.Sample::second).max().orElse(1);
        panel(b, 0, "heap after GC per node (MB)", samples, x -> x.stats().heapBytes() / 1e6, last, true);
        panel(b, 1, "threads per node", samples, x -> x.stats().threads(), last, true);
        panel(b, 2, "open file descriptors per node", samples, x -> x.stats().fds(), last, true);
        panel(b, 3, "database client connections", samples, x -> x.connections(), last, false);
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">seconds since the start (0 to %d); blue A, red B</text>%n",
                LEFT, 4 * (PANEL + 30) + 20, last));
        return b.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder b, int i, String title, List<ChaosSoak.Sample> samples,
                              ToDoubleFunction<ChaosSoak.Sample> value, long last, boolean perNode) {
        int top = 20 + i * (PANEL + 30);
        Map<String, StringBuilder> lines = new TreeMap<>();
        double max = samples.stream().mapToDouble(value).max().orElse(1);
        double scale = max <= 0 ? 1 : max * 1.1;
        for (ChaosSoak.Sample x : samples) {
            double v = value.applyAsDouble(x);
            if (v < 0) {
                continue;
            }
            String line = perNode ? x.node().substring(0, 1) : "db";
            double px = LEFT + (W - LEFT - 20) * (double) x.second() / Math.max(1, last);
            double py = top + PANEL - PANEL * v / scale;
            lines.computeIfAbsent(line, k -> new StringBuilder()).append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", LEFT, top - 5, title));
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
                LEFT, top, W - LEFT - 20, PANEL));
        b.append(String.format(Locale.ROOT, "<text x=\"5\" y=\"%d\">%.0f</text><text x=\"5\" y=\"%d\">0</text>%n", top + 10, scale, top + PANEL));
        if (lines.isEmpty()) {
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">not measured on this backend</text>%n", LEFT + 10, top + PANEL / 2));
        }
        int c = 0;
        for (Map.Entry<String, StringBuilder> e : lines.entrySet()) {
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>%n",
                    perNode ? COLOURS[c++ % 2] : COLOURS[2], e.getValue().toString().strip()));
        }
    }
}
