package dev.threadline.core.skill.builtin.calc;

/**
 * One lexical token of an arithmetic expression.
 *
 * @param kind     what it is
 * @param text     the characters it was read from (lower-cased for names)
 * @param position 1-based position of its first character
 * @param value    the number, for {@link Kind#NUMBER}; 0 otherwise
 */
record Token(Kind kind, String text, int position, double value) {

    enum Kind { NUMBER, NAME, PLUS, MINUS, STAR, SLASH, PERCENT, CARET, LPAREN, RPAREN, COMMA, END }

    static Token of(Kind kind, String text, int position) {
        return new Token(kind, text, position, 0);
    }

    /** How the token is shown in an error message. */
    String shown() {
        return kind == Kind.END ? "the end of the expression" : "'" + text + "'";
    }
}
