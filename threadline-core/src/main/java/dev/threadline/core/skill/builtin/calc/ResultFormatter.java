package dev.threadline.core.skill.builtin.calc;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats a computed double the way a person writes it: {@code 20} not {@code 20.0}, {@code 0.3}
 * not {@code 0.30000000000000004}.
 *
 * <p>Whole numbers up to 2^53 (exact in a double) are printed exactly. Anything else is rounded to
 * {@value #SIGNIFICANT_DIGITS} significant digits, which removes the binary floating-point noise of a
 * few operations while keeping far more precision than a question usually needs. Very large or very
 * small magnitudes use scientific notation ({@code 1.5e+20}, {@code 1e-9}). Stateless: safe from any thread.
 */
public final class ResultFormatter {
    /** Significant digits kept for results that are not exact whole numbers. */
    public static final int SIGNIFICANT_DIGITS = 12;

    private static final double EXACT_LIMIT = 9_007_199_254_740_992d; // 2^53
    private static final MathContext CONTEXT = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);

    private ResultFormatter() {}

    /** {@code value} as the calculator shows it. */
    public static String format(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        if (value == 0) {
            return "0"; // also for -0
        }
        if (value == Math.rint(value) && Math.abs(value) <= EXACT_LIMIT) {
            return Long.toString((long) value);
        }
        BigDecimal rounded = new BigDecimal(value).round(CONTEXT).stripTrailingZeros();
        double magnitude = Math.abs(rounded.doubleValue());
        if (magnitude >= 1e-6 && magnitude < 1e15) {
            return rounded.toPlainString();
        }
        return scientific(rounded);
    }

    private static String scientific(BigDecimal rounded) {
        String digits = rounded.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - rounded.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (rounded.signum() < 0 ? "-" : "") + mantissa + "e" + (exponent >= 0 ? "+" : "") + exponent;
    }
}
