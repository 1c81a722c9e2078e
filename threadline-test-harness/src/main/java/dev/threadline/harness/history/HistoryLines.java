package dev.threadline.harness.history;

import java.util.Objects;

/**
 * The line protocol a child process uses to report its operations on stdout, so the test process can
 * build a {@link History} of them: {@code START <session> <commandId> <text>} just before a call and
 * {@code END <outcome> <session> <commandId>} when it returns or throws. A call that has a START but no
 * END when its process dies has outcome {@link Outcome#UNKNOWN}. Session and command ids hold no
 * whitespace; the text may. Stateless: safe from any thread.
 */
public final class HistoryLines {
    /** Prefix of a line announcing a call. */
    public static final String START = "START ";
    /** Prefix of a line reporting a call's outcome. */
    public static final String END = "END ";

    private HistoryLines() {}

    /**
     * The line to print just before submitting {@code text}.
     *
     * @throws IllegalArgumentException when the session or command id holds whitespace, or the text a line break
     */
    public static String start(String session, String commandId, String text) {
        return START + word(session, "session") + " " + word(commandId, "command id") + " " + oneLine(text);
    }

    /**
     * The line to print when the call ended with {@code outcome}.
     *
     * @throws IllegalArgumentException when the session or command id holds whitespace
     */
    public static String end(Outcome outcome, String session, String commandId) {
        return END + outcome.wireName() + " " + word(session, "session") + " " + word(commandId, "command id");
    }

    private static String word(String s, String what) {
        Objects.requireNonNull(s, what);
        if (s.isEmpty() || s.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException(what + " must be one word for the line protocol, was '" + s + "'");
        }
        return s;
    }

    private static String oneLine(String text) {
        Objects.requireNonNull(text, "text");
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("text must be one line for the line protocol");
        }
        return text;
    }
}
