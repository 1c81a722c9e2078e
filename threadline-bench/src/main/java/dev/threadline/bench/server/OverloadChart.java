package dev.threadline.bench.server;

import java.util.List;
import java.util.Locale;

/**
 * {@code latency-over-time.svg} of {@code threadline bench overload}: each window's p50 and p99 (by
 * intended start) on a linear scale, the kill and the moment the load was absorbed as vertical lines,
 * and the absorb bound as a dashed horizontal one. Stateless.
 */
final class OverloadChart {
    static final String FILE = "latency-over-time.svg";
    private static final int W = 760;
    private static final int H = 360;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;

    private OverloadChart() {}

    static String svg(OverloadReport.Results r) {
        List<OverloadReport.Window> ws = r.windows();
        double seconds = r.options().seconds();
        double top = Math.max(r.absorbBoundMillis(), 1);
        for (OverloadReport.Window w : ws) {
            top = Math.max(top, w.p99Millis());
        }
        top *= 1.05;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                + " font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", W, H));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"13\">Turn latency by intended start, %.1f turns/s offered"
                + " (%.0f %% of two nodes' saturation); node b SIGKILLed at %.1f s</text>%n", LEFT, r.ratePerSec(),
                r.options().load() * 100, r.killAtSeconds()));
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM));
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", LEFT, TOP, LEFT, H - BOTTOM));
        for (int i = 0; i <= 4; i++) {
            double v = top * i / 4;
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%,.0f</text>%n", LEFT - 5, y(v, top) + 4, v));
            double t = seconds * i / 4;
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>%n", x(t, seconds), H - BOTTOM + 15, t));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds (intended start)</text>%n",
                (LEFT + W - RIGHT) / 2, H - 12));
        b.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">ms</text>%n",
                (TOP + H - BOTTOM) / 2, (TOP + H - BOTTOM) / 2));
        b.append(polyline(ws, seconds, top, true, "#1f77b4")).append(polyline(ws, seconds, top, false, "#d62728"));
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"gray\" stroke-dasharray=\"4 3\"/>%n",
                LEFT, y(r.absorbBoundMillis(), top), W - RIGHT, y(r.absorbBoundMillis(), top)));
        if (r.killAtSeconds() >= 0) {
            b.append(vertical(x(r.killAtSeconds(), seconds), "kill", "black"));
        }
        if (r.absorbSeconds() >= 0) {
            b.append(vertical(x(r.killAtSeconds() + r.absorbSeconds(), seconds), "absorbed", "green"));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#1f77b4\">p50</text><text x=\"%d\" y=\"%d\" fill=\"#d62728\">p99</text>"
                + "<text x=\"%d\" y=\"%d\" fill=\"gray\">absorb bound</text>%n", W - 260, TOP + 12, W - 225, TOP + 12,
                W - 190, TOP + 12));
        return b.append("</svg>\n").toString();
    }

    private static String polyline(List<OverloadReport.Window> ws, double seconds, double top, boolean p50, String colour) {
        StringBuilder pts = new StringBuilder();
        double half = ws.size() > 1 ? (ws.get(1).fromSeconds() - ws.get(0).fromSeconds()) / 2 : 0;
        for (OverloadReport.Window w : ws) {
            if (w.ok() > 0) {
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(w.fromSeconds() + half, seconds), y(p50 ? w.p50Millis() : w.p99Millis(), top)));
            }
        }
        return String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>%n", pts.toString().strip(), colour);
    }

    private static String vertical(double x, String label, String colour) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/><text x=\"%.1f\" y=\"%d\" fill=\"%s\">%s</text>%n",
                x, TOP, x, H - BOTTOM, colour, x + 3, TOP + 28, colour, label);
    }

    private static double x(double t, double seconds) {
        return LEFT + (W - LEFT - RIGHT) * Math.min(1, Math.max(0, t / seconds));
    }

    private static double y(double v, double top) {
        return H - BOTTOM - (H - TOP - BOTTOM) * Math.min(1, v / top);
    }
}
