package dev.threadline.bench.kit;

import java.util.List;

/**
 * The bench's log-log SVG line charts ({@code SvgPlot}) for the benchmarks in other packages (the
 * server load run). Stateless and thread-safe.
 */
public final class SvgCharts {
    /**
     * One curve.
     *
     * @param name   its legend
     * @param points its (x, y) points, both positive
     * @param dashed drawn dashed (a tail percentile beside its median)
     * @param color  an index into the palette, or -1 for its place in the list
     */
    public record Curve(String name, List<double[]> points, boolean dashed, int color) {}

    private SvgCharts() {}

    /** An SVG document: {@code curves} on log-log axes, with a title, axis labels and a legend. */
    public static String logLog(String title, String xLabel, String yLabel, List<Curve> curves) {
        return SvgPlot.render(title, xLabel, yLabel, curves.stream()
                .map(c -> new SvgPlot.Series(c.name(), c.points(), c.dashed(), c.color())).toList());
    }
}
