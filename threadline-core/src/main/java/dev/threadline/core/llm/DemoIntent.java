package dev.threadline.core.llm;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the offline demo model makes of a user's text: one of a few fixed intents, recognised by
 * simple rules (see {@link #of}). Part of {@link ScriptedModel#demo()}.
 */
sealed interface DemoIntent {

    /** Evaluate {@code expression} with the calculate skill. */
    record Calculate(String expression) implements DemoIntent {}

    /** Add {@code note} to the meeting notes. */
    record AddNote(String note) implements DemoIntent {}

    /** Show the meeting notes. */
    record ListNotes() implements DemoIntent {}

    /** Forget the meeting notes. */
    record ClearNotes() implements DemoIntent {}

    /** Read the workspace file {@code path}. */
    record ReadFile(String path) implements DemoIntent {}

    /** List the workspace directory {@code path}. */
    record ListFiles(String path) implements DemoIntent {}

    /** Ask the user {@code question} with the ask_user skill ("ask me ..."). */
    record Ask(String question) implements DemoIntent {}

    /** Nothing the demo recognises. */
    record Chat() implements DemoIntent {}

    Pattern NOTE = Pattern.compile("(?is)^\\s*(?:note|remember)(?:\\s+that)?\\s*[:\\s]\\s*(\\S.*)$");
    Pattern ASK = Pattern.compile("(?is)^\\s*ask\\s+me\\s*[:\\s]\\s*(\\S.*)$");
    Pattern LIST_NOTES = Pattern.compile("(?i)^(?:(?:show|list)(?:\\s+(?:my|the))?\\s+)?notes$");
    Pattern CLEAR_NOTES = Pattern.compile("(?i)^(?:clear|forget)(?:\\s+(?:my|the|all))?\\s+notes$");
    Pattern READ = Pattern.compile("(?is)^read\\s+(?:the\\s+file\\s+)?(\\S.*)$");
    Pattern LIST_FILES = Pattern.compile("(?i)^(?:ls|list\\s+files)(?:\\s+(?:in\\s+)?(\\S.*))?$");
    /** A maximal run of the characters and names an arithmetic expression is made of. */
    Pattern EXPRESSION_RUN = Pattern.compile(
            "(?i)(?:[0-9.+\\-*/%^(),\u00d7\u00f7\\s]|\\b(?:sqrt|abs|round|floor|ceil|min|max|ln|log|exp|sin|cos|tan|pi|e)\\b)+");
    /** Two operands joined by an operator, or a function call: what makes a run arithmetic. */
    Pattern ARITHMETIC = Pattern.compile("(?i)[0-9)a-z.]\\s*[-+*/%^\u00d7\u00f7]\\s*[-+(0-9.a-z]|[a-z]\\s*\\(");

    /** The intent of {@code text}, by the first rule that matches. */
    static DemoIntent of(String text) {
        String t = text == null ? "" : text.strip();
        Matcher m = NOTE.matcher(t);
        if (m.matches()) {
            return new AddNote(m.group(1).strip());
        }
        if ((m = ASK.matcher(t)).matches()) {
            String q = m.group(1).strip();
            return new Ask(q.endsWith("?") ? q : q + "?");
        }
        String command = t.replaceAll("[\\s?!.]+$", "");
        if (LIST_NOTES.matcher(command).matches()) {
            return new ListNotes();
        }
        if (CLEAR_NOTES.matcher(command).matches()) {
            return new ClearNotes();
        }
        if ((m = READ.matcher(command)).matches()) {
            return new ReadFile(unquote(m.group(1).strip()));
        }
        if ((m = LIST_FILES.matcher(command)).matches()) {
            return new ListFiles(m.group(1) == null ? "." : unquote(m.group(1).strip()));
        }
        String expression = expressionIn(t);
        return expression == null ? new Chat() : new Calculate(expression);
    }

    /** The longest arithmetic-looking run in {@code text}, trimmed and with balanced parentheses; or null. */
    static String expressionIn(String text) {
        String best = null;
        Matcher m = EXPRESSION_RUN.matcher(text);
        while (m.find()) {
            String candidate = tidy(m.group());
            if (ARITHMETIC.matcher(candidate).find() && candidate.chars().anyMatch(Character::isDigit)
                    && (best == null || candidate.length() > best.length())) {
                best = candidate;
            }
        }
        return best;
    }

    private static String tidy(String run) {
        String s = run.strip().replaceAll("^[\\s,*/%^)\u00d7\u00f7]+", "").replaceAll("[\\s,+\\-*/%^(\u00d7\u00f7.]+$", "");
        while (s.startsWith("(") && count(s, '(') > count(s, ')')) {
            s = s.substring(1).strip();
        }
        while (s.endsWith(")") && count(s, ')') > count(s, '(')) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }

    private static long count(String s, char c) {
        return s.chars().filter(x -> x == c).count();
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && "\"'`".indexOf(s.charAt(0)) >= 0 && s.charAt(s.length() - 1) == s.charAt(0)) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }
}
