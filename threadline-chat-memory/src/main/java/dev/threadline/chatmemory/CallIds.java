package dev.threadline.chatmemory;

import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Tool-call ids between a framework and Threadline. Threadline needs every tool_use id of a session to be
 * unique and non-blank; framework ids may repeat (some models number their calls per reply) or be missing.
 * A framework id is stored as is when it is free, else with a suffix {@code ~n}; an id that already ends
 * like a suffix always gets one, so {@link #decode} is exact. A missing id is stored as a bare suffix and
 * read back as null. Stateless and thread-safe.
 */
public final class CallIds {
    private static final Pattern SUFFIXED = Pattern.compile("(?s)(.*)~[0-9]+");

    private CallIds() {}

    /**
     * The stored id for framework id {@code id} (null or blank for none): the first form that {@code used}
     * does not hold.
     *
     * @throws NullPointerException when {@code used} is null
     */
    public static String encode(String id, Predicate<String> used) {
        Objects.requireNonNull(used, "used");
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

    /** The form a framework id is compared in: the id encoded as if no id were taken (never blank). */
    public static String neutral(String id) {
        return encode(id, x -> false);
    }

    /**
     * The framework id a stored id stands for (null for a call that had none).
     *
     * @throws NullPointerException when {@code stored} is null
     */
    public static String decode(String stored) {
        var m = SUFFIXED.matcher(stored);
        String base = m.matches() ? m.group(1) : stored;
        return base.isEmpty() ? null : base;
    }
}
