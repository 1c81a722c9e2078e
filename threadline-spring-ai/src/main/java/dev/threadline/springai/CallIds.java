package dev.threadline.springai;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Threadline needs every tool_use id of a session to be unique and non-blank; framework ids may repeat
 * (some models number their calls per reply) or be missing. A framework id is stored as is when it is
 * free, else with a suffix {@code ~n}; an id that already ends like a suffix always gets one, so
 * {@link #decode} is exact. A missing id is stored as a bare suffix and read back as null. Stateless.
 */
final class CallIds {
    private static final Pattern SUFFIXED = Pattern.compile("(?s)(.*)~[0-9]+");

    private CallIds() {}

    /** The stored id for {@code id} (null or blank for none), the first that {@code used} does not hold. */
    static String encode(String id, Predicate<String> used) {
        String base = id == null || id.isBlank() ? "" : id;
        if (!base.isEmpty() && !SUFFIXED.matcher(base).matches() && !used.test(base)) {
            return base;
        }
        for (int n = 1; ; n++) {
            String candidate = base + "~" + n;
            if (!used.test(candidate)) {
                return candidate;
            }
        }
    }

    /** The id compared between a stored message and a framework's: its framework id, made non-blank. */
    static String neutral(String id) {
        return encode(id, x -> false);
    }

    /** The framework id a stored id stands for (null for a call that had none). */
    static String decode(String stored) {
        var m = SUFFIXED.matcher(stored);
        String base = m.matches() ? m.group(1) : stored;
        return base.isEmpty() ? null : base;
    }
}
