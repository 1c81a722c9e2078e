package dev.threadline.store.jdbc;

import dev.threadline.core.error.StorageException;

/**
 * Keeps error messages about stored rows and servers to one line: a message (Jackson's names the source
 * and location on further lines, a server's may carry a hint and a position) is cut to its first line
 * and to {@value #MAX} characters, so a log line or an HTTP problem names the session and seq and
 * nothing runs on. Stateless.
 */
public final class OneLine {
    /** The most characters of a message kept. */
    public static final int MAX = 240;

    private OneLine() {}

    /** {@code message}'s first line, at most {@link #MAX} characters (an ellipsis marks a cut; brackets the cut left open are closed). */
    public static String of(String message) {
        if (message == null) {
            return "";
        }
        int eol = message.indexOf('\n');
        String first = (eol < 0 ? message : message.substring(0, eol)).strip();
        boolean cut = eol >= 0;
        if (first.length() > MAX) {
            first = first.substring(0, MAX);
            cut = true;
        }
        if (!cut) {
            return first;
        }
        long open = first.chars().filter(ch -> ch == '(').count() - first.chars().filter(ch -> ch == ')').count();
        return first + "…" + ")".repeat((int) Math.max(0, open));
    }

    /** The same failure with a one-line message (the same exception when it already is one line). */
    public static StorageException of(StorageException e) {
        String line = of(e.getMessage());
        return line.equals(e.getMessage()) ? e : new StorageException(line, e.getCause() == null ? e : e.getCause());
    }
}
