package dev.threadline.core.context;

import dev.threadline.core.error.InvalidInputException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Reads the text form of a {@link ContextPolicy} ({@code name} or {@code name:value} or {@code name:k=v,k=v}). */
final class PolicySpec {
    private static final String FORMS = "use full, window:N, window:messages=N,tokens=T, auto-compact,"
            + " auto-compact:F or auto-compact:threshold=F,keep=K";

    private PolicySpec() {}

    static ContextPolicy parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new InvalidInputException("contextPolicy", "is empty; " + FORMS);
        }
        String s = spec.strip().toLowerCase(Locale.ROOT);
        int colon = s.indexOf(':');
        String name = colon < 0 ? s : s.substring(0, colon);
        String args = colon < 0 ? "" : s.substring(colon + 1);
        try {
            return switch (name) {
                case "full" -> {
                    none(spec, args);
                    yield ContextPolicy.full();
                }
                case "window" -> {
                    Map<String, String> p = params(spec, args, "messages", "tokens");
                    yield new ContextPolicy.Window(Integer.parseInt(p.getOrDefault("messages", "0")),
                            Long.parseLong(p.getOrDefault("tokens", "0")));
                }
                case "auto-compact", "auto_compact", "autocompact" -> {
                    Map<String, String> p = params(spec, args, "threshold", "keep");
                    double threshold = Double.parseDouble(p.getOrDefault("threshold", "" + ContextPolicy.AutoCompact.DEFAULT.threshold()));
                    double keep = Double.parseDouble(p.getOrDefault("keep",
                            "" + Math.min(ContextPolicy.AutoCompact.DEFAULT.keepRecent(), threshold / 2)));
                    yield new ContextPolicy.AutoCompact(threshold, keep);
                }
                default -> throw new InvalidInputException("contextPolicy", "'" + spec + "' names no policy; " + FORMS);
            };
        } catch (NumberFormatException e) {
            throw new InvalidInputException("contextPolicy", "'" + spec + "' has a value that is not a number ("
                    + e.getMessage() + "); " + FORMS);
        }
    }

    private static void none(String spec, String args) {
        if (!args.isEmpty()) {
            throw new InvalidInputException("contextPolicy", "'" + spec + "' takes no parameters; " + FORMS);
        }
    }

    /** {@code v} alone is the value of {@code single}; otherwise {@code k=v} pairs of {@code single} and {@code other}. */
    private static Map<String, String> params(String spec, String args, String single, String other) {
        Map<String, String> out = new HashMap<>();
        if (args.isEmpty()) {
            return out;
        }
        if (!args.contains("=")) {
            out.put(single, args.strip());
            return out;
        }
        for (String pair : args.split(",")) {
            String[] kv = pair.split("=", 2);
            String key = kv[0].strip();
            if (kv.length != 2 || !(key.equals(single) || key.equals(other))) {
                throw new InvalidInputException("contextPolicy", "'" + spec + "': cannot read '" + pair + "'; " + FORMS);
            }
            out.put(key, kv[1].strip());
        }
        return out;
    }
}
