package dev.threadline.bench.kit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Hand-written SVG line charts on log-log axes (history length or sessions against bytes, time or
 * steps per second): one polyline with dots per series, decade grid lines, a legend below the plot.
 */
public final class SvgPlot {
    /**
     * One curve: its name, its (x, y) points, whether it is drawn dashed (a reference line, or a p99
     * beside its median), and its color (an index into the palette; -1: its place in the list).
     */
    public record Series(String name, List<double[]> points, boolean reference, int color) {
        public Series(String name, List<double[]> points, boolean reference) {
            this(name, points, reference, -1);
        }
    }

    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"};
    private static final int W = 900;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 50;
    private static final int PLOT_H = 300;

    private SvgPlot() {}

    public static String render(String title, String xLabel, String yLabel, List<Series> all) {
        List<Series> series = all.stream().filter(s -> !s.points().isEmpty()).toList();
        double[] xr = range(series, 0);
        double[] yr = range(series, 1);
        int legendRows = (series.size() + 1) / 2;
        int height = TOP + PLOT_H + 60 + legendRows * 20;
        int plotW = W - LEFT - RIGHT;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", W, height, W, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                LEFT, esc(title)));
        for (int d = (int) Math.floor(xr[0]); d <= Math.ceil(xr[1]); d++) {
            double x = LEFT + (d - xr[0]) / (xr[1] - xr[0]) * plotW;
            svg.append(line(x, TOP, x, TOP + PLOT_H, "#ddd")).append(text(x, TOP + PLOT_H + 16, "middle", label(d)));
        }
        for (int d = (int) Math.floor(yr[0]); d <= Math.ceil(yr[1]); d++) {
            double y = TOP + PLOT_H - (d - yr[0]) / (yr[1] - yr[0]) * PLOT_H;
            svg.append(line(LEFT, y, LEFT + plotW, y, "#ddd")).append(text(LEFT - 6, y + 4, "end", label(d)));
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
                LEFT, TOP, plotW, PLOT_H));
        svg.append(text(LEFT + plotW / 2.0, TOP + PLOT_H + 36, "middle", xLabel + " (log scale)"));
        svg.append(String.format(Locale.ROOT, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">%s (log scale)</text>%n",
                TOP + PLOT_H / 2, TOP + PLOT_H / 2, esc(yLabel)));
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String color = COLORS[(s.color() >= 0 ? s.color() : i) % COLORS.length];
            List<String> pts = new ArrayList<>();
            for (double[] p : s.points()) {
                double x = LEFT + (Math.log10(p[0]) - xr[0]) / (xr[1] - xr[0]) * plotW;
                double y = TOP + PLOT_H - (Math.log10(p[1]) - yr[0]) / (yr[1] - yr[0]) * PLOT_H;
                pts.add(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", x, y, color));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                    String.join(" ", pts), color, s.reference() ? " stroke-dasharray=\"6 4\"" : ""));
            double lx = LEFT + (i % 2) * (plotW / 2.0);
            double ly = TOP + PLOT_H + 58 + (i / 2) * 20;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                    lx, ly - 4, lx + 24, ly - 4, color, s.reference() ? " stroke-dasharray=\"6 4\"" : ""));
            svg.append(text(lx + 30, ly, "start", s.name()));
        }
        return svg.append("</svg>\n").toString();
    }

    /** The log10 range of coordinate {@code k} over all points, widened to whole decades. */
    private static double[] range(List<Series> series, int k) {
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (Series s : series) {
            for (double[] p : s.points()) {
                lo = Math.min(lo, Math.log10(p[k]));
                hi = Math.max(hi, Math.log10(p[k]));
            }
        }
        if (lo > hi) {
            return new double[] {0, 1};
        }
        lo = Math.floor(lo);
        hi = Math.max(lo + 1, Math.ceil(hi));
        return new double[] {lo, hi};
    }

    private static String label(int decade) {
        double v = Math.pow(10, decade);
        if (decade >= 9) {
            return String.format(Locale.ROOT, "%.0fG", v / 1e9);
        }
        if (decade >= 6) {
            return String.format(Locale.ROOT, "%.0fM", v / 1e6);
        }
        if (decade >= 3) {
            return String.format(Locale.ROOT, "%.0fk", v / 1e3);
        }
        return decade >= 0 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%s", v);
    }

    private static String line(double x1, double y1, double x2, double y2, String color) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
                x1, y1, x2, y2, color);
    }

    private static String text(double x, double y, String anchor, String s) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n", x, y, anchor, esc(s));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
