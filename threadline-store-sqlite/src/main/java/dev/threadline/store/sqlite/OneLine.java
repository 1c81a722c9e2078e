package dev.threadline.store.sqlite;

import dev.threadline.core.error.StorageException;

/**
 * Keeps error messages about stored rows to one line: a parser's message (Jackson's names the
 * source and location on further lines) is cut to its first line and to {@value #MAX} characters, so
 * a log line or an HTTP problem names the session and seq and nothing runs on. Stateless.
 */
final class OneLine {
    /** The most characters of a cause's message kept. */
    static final int MAX = 200;

    private OneLine() {}

    /** {@code message}'s first line, at most {@link #MAX} characters (an ellipsis marks a cut). */
    static String of(String message) {
        if (message == null) {
            return "";
        }
        int eol = message.indexOf('\n');
        String first = (eol < 0 ? message : message.substring(0, eol)).stripTrailing();
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
    static StorageException of(StorageException e) {
        String line = of(e.getMessage());
        return line.equals(e.getMessage()) ? e : new StorageException(line, e.getCause() == null ? e : e.getCause());
    }
}
