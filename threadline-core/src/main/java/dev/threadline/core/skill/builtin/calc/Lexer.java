package dev.threadline.core.skill.builtin.calc;

import dev.threadline.core.skill.builtin.calc.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits an expression into tokens: numbers ({@code 12}, {@code 1.5}, {@code .5}, {@code 2e-3}),
 * names, the operators {@code + - * / % ^} (also {@code **}, {@code ×}, {@code ÷}), parentheses and
 * commas. Whitespace separates tokens and is otherwise ignored.
 */
final class Lexer {
    private final String input;
    private int i;

    private Lexer(String input) {
        this.input = input;
    }

    /** The tokens of {@code input}, ending with an {@link Kind#END} token. */
    static List<Token> tokenize(String input) {
        return new Lexer(input).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            while (i < input.length() && Character.isWhitespace(input.charAt(i))) {
                i++;
            }
            if (i >= input.length()) {
                tokens.add(Token.of(Kind.END, "", input.length() + 1));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        char c = input.charAt(i);
        int position = i + 1;
        if (isDigit(c) || (c == '.' && i + 1 < input.length() && isDigit(input.charAt(i + 1)))) {
            return number();
        }
        if (Character.isLetter(c) || c == '_') {
            int start = i;
            while (i < input.length() && (Character.isLetterOrDigit(input.charAt(i)) || input.charAt(i) == '_')) {
                i++;
            }
            return Token.of(Kind.NAME, input.substring(start, i).toLowerCase(Locale.ROOT), position);
        }
        if (c == '*' && i + 1 < input.length() && input.charAt(i + 1) == '*') {
            i += 2;
            return Token.of(Kind.CARET, "**", position);
        }
        Kind kind = switch (c) {
            case '+' -> Kind.PLUS;
            case '-', '\u2212' -> Kind.MINUS;
            case '*', '\u00d7' -> Kind.STAR;
            case '/', '\u00f7' -> Kind.SLASH;
            case '%' -> Kind.PERCENT;
            case '^' -> Kind.CARET;
            case '(' -> Kind.LPAREN;
            case ')' -> Kind.RPAREN;
            case ',' -> Kind.COMMA;
            default -> throw new ExpressionException("unexpected character " + describe(input.codePointAt(i)), position);
        };
        i++;
        return Token.of(kind, String.valueOf(c), position);
    }

    private Token number() {
        int start = i;
        digits();
        if (i < input.length() && input.charAt(i) == '.') {
            i++;
            digits();
        }
        if (i < input.length() && (input.charAt(i) == 'e' || input.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < input.length() && (input.charAt(j) == '+' || input.charAt(j) == '-')) {
                j++;
            }
            if (j < input.length() && isDigit(input.charAt(j))) {
                i = j;
                digits();
            }
        }
        String text = input.substring(start, i);
        double value = Double.parseDouble(text);
        if (Double.isInfinite(value)) {
            throw new ExpressionException("number " + text + " is too large", start + 1);
        }
        return new Token(Kind.NUMBER, text, start + 1, value);
    }

    private void digits() {
        while (i < input.length() && isDigit(input.charAt(i))) {
            i++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String describe(int codePoint) {
        if (Character.isISOControl(codePoint) || !Character.isDefined(codePoint)) {
            return String.format("U+%04X", codePoint);
        }
        return "'" + new String(Character.toChars(codePoint)) + "'";
    }
}
