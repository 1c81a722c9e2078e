package dev.threadline.core.skill.builtin.calc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The functions and constants an expression may use, with their arity and domain checks. */
final class MathFunctions {
    private MathFunctions() {}

    /** A function body; {@code at} is the position of the call, for errors. */
    @FunctionalInterface
    private interface Body {
        double apply(double[] args, int at);
    }

    private record Function(int minArgs, int maxArgs, String usage, Body body) {}

    private static final Map<String, Function> FUNCTIONS = new TreeMap<>();
    private static final Map<String, Double> CONSTANTS = Map.of("pi", Math.PI, "\u03c0", Math.PI, "e", Math.E);

    static {
        one("sqrt", (a, at) -> {
            requireAtLeast("sqrt", a[0], 0, false, at);
            return Math.sqrt(a[0]);
        });
        one("abs", (a, at) -> Math.abs(a[0]));
        FUNCTIONS.put("round", new Function(1, 2, "round(x) or round(x, digits)", MathFunctions::round));
        one("floor", (a, at) -> Math.floor(a[0]));
        one("ceil", (a, at) -> Math.ceil(a[0]));
        FUNCTIONS.put("min", new Function(1, Integer.MAX_VALUE, "min(x, y, ...)", (a, at) -> Arrays.stream(a).min().orElseThrow()));
        FUNCTIONS.put("max", new Function(1, Integer.MAX_VALUE, "max(x, y, ...)", (a, at) -> Arrays.stream(a).max().orElseThrow()));
        one("ln", (a, at) -> {
            requireAtLeast("ln", a[0], 0, true, at);
            return Math.log(a[0]);
        });
        FUNCTIONS.put("log", new Function(1, 2, "log(x) (base 10) or log(x, base)", MathFunctions::log));
        one("exp", (a, at) -> Math.exp(a[0]));
        one("sin", (a, at) -> Math.sin(a[0]));
        one("cos", (a, at) -> Math.cos(a[0]));
        one("tan", (a, at) -> Math.tan(a[0]));
    }

    private static void one(String name, Body body) {
        FUNCTIONS.put(name, new Function(1, 1, name + "(x)", body));
    }

    static boolean isFunction(String name) {
        return FUNCTIONS.containsKey(name);
    }

    /** The value of constant {@code name}, or an error naming it and the known names. */
    static double constant(String name, int at) {
        Double value = CONSTANTS.get(name);
        if (value != null) {
            return value;
        }
        if (isFunction(name)) {
            throw new ExpressionException("function '" + name + "' needs its arguments in parentheses, e.g. "
                    + FUNCTIONS.get(name).usage(), at);
        }
        throw new ExpressionException("unknown name '" + name + "' (known constants: pi, e)", at);
    }

    /** Refuses a call of something that is not a function, naming the known ones. */
    static void requireFunction(String name, int at) {
        if (FUNCTIONS.containsKey(name)) {
            return;
        }
        if (CONSTANTS.containsKey(name)) {
            throw new ExpressionException("'" + name + "' is a constant, not a function; write " + name
                    + "*(...) to multiply", at);
        }
        throw new ExpressionException("unknown function '" + name + "' (known functions: "
                + String.join(", ", FUNCTIONS.keySet()) + ")", at);
    }

    /** Calls function {@code name}; unknown names, wrong arity and domain errors name the problem. */
    static double call(String name, List<Double> args, int at) {
        requireFunction(name, at);
        Function f = FUNCTIONS.get(name);
        if (args.size() < f.minArgs() || args.size() > f.maxArgs()) {
            throw new ExpressionException(name + " takes " + arity(f) + " but got " + count(args.size())
                    + "; use " + f.usage(), at);
        }
        return f.body().apply(args.stream().mapToDouble(Double::doubleValue).toArray(), at);
    }

    private static double round(double[] a, int at) {
        int digits = 0;
        if (a.length == 2) {
            if (a[1] != Math.rint(a[1]) || a[1] < 0 || a[1] > 15) {
                throw new ExpressionException("round's digits must be a whole number from 0 to 15, got "
                        + ResultFormatter.format(a[1]), at);
            }
            digits = (int) a[1];
        }
        if (Double.isInfinite(a[0]) || Double.isNaN(a[0])) {
            return a[0];
        }
        return new BigDecimal(Double.toString(a[0])).setScale(digits, RoundingMode.HALF_UP).doubleValue();
    }

    private static double log(double[] a, int at) {
        requireAtLeast("log", a[0], 0, true, at);
        if (a.length == 1) {
            return Math.log10(a[0]);
        }
        if (a[1] <= 0 || a[1] == 1) {
            throw new ExpressionException("log's base must be positive and not 1, got " + ResultFormatter.format(a[1]), at);
        }
        return Math.log(a[0]) / Math.log(a[1]);
    }

    private static void requireAtLeast(String name, double x, double bound, boolean strict, int at) {
        if (strict ? x <= bound : x < bound) {
            String what = strict ? "positive numbers" : "numbers that are not negative";
            throw new ExpressionException(name + " is only defined for " + what + ", got " + ResultFormatter.format(x), at);
        }
    }

    private static String arity(Function f) {
        if (f.minArgs() == f.maxArgs()) {
            return count(f.minArgs());
        }
        return f.maxArgs() == Integer.MAX_VALUE ? "at least " + count(f.minArgs())
                : f.minArgs() + " or " + count(f.maxArgs());
    }

    private static String count(int n) {
        return n == 0 ? "no arguments" : n + (n == 1 ? " argument" : " arguments");
    }
}
