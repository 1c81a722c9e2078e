package dev.threadline.store.postgres;

/**
 * Keeps error messages to one line: a server's or a parser's message is cut at its first line break
 * and to {@value #MAX} characters, so a log line or an HTTP problem never runs on. Stateless.
 */
final class OneLine {
    /** The most characters of a message kept. */
    static final int MAX = 240;

    private OneLine() {}

    static String of(String message) {
        if (message == null) {
            return "";
        }
        int eol = message.indexOf('\n');
        String first = (eol < 0 ? message : message.substring(0, eol)).strip();
        if (first.length() > MAX) {
            return first.substring(0, MAX) + "…";
        }
        return eol < 0 ? first : first + "…";
    }
}
