package dev.threadline.core.skill.builtin.calc;

import dev.threadline.core.skill.builtin.calc.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates arithmetic expressions by recursive descent, without any script engine. Grammar, loosest
 * binding first:
 *
 * <pre>
 * expression := term (('+' | '-') term)*
 * term       := unary (('*' | '/' | '%') unary)*
 * unary      := ('-' | '+') unary | power
 * power      := primary ('^' unary)?            right-associative: 2^3^2 = 2^9
 * primary    := number | name | name '(' arguments ')' | '(' expression ')'
 * </pre>
 *
 * So {@code -2^2 = -4} (as in mathematics) and {@code 2^-1 = 0.5}. {@code %} is the remainder with
 * the sign of the dividend. Every failure is an {@link ExpressionException} naming the problem and
 * its 1-based position; nothing else escapes, whatever the input. Stateless: safe from any thread.
 */
public final class ExpressionParser {
    /** Longest expression accepted, in characters. */
    public static final int MAX_LENGTH = 1000;
    /** Deepest nesting of parentheses, signs and powers accepted. */
    public static final int MAX_DEPTH = 100;

    private final List<Token> tokens;
    private int next;
    private int depth;

    private ExpressionParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** The value of {@code expression}; a finite double. */
    public static double evaluate(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new ExpressionException("expression is empty", 0);
        }
        if (expression.length() > MAX_LENGTH) {
            throw new ExpressionException("expression is too long: " + expression.length()
                    + " characters, the limit is " + MAX_LENGTH, MAX_LENGTH + 1);
        }
        ExpressionParser parser = new ExpressionParser(Lexer.tokenize(expression));
        double value = parser.expression();
        Token trailing = parser.peek();
        if (trailing.kind() == Kind.RPAREN) {
            throw new ExpressionException("unbalanced parenthesis: ')' has no matching '('", trailing.position());
        }
        if (trailing.kind() != Kind.END) {
            throw new ExpressionException("unexpected " + trailing.shown()
                    + " (expected an operator or the end of the expression)", trailing.position());
        }
        return value;
    }

    private double expression() {
        double value = term();
        while (peek().kind() == Kind.PLUS || peek().kind() == Kind.MINUS) {
            Token op = take();
            double right = term();
            value = checked(op.kind() == Kind.PLUS ? value + right : value - right, op);
        }
        return value;
    }

    private double term() {
        double value = unary();
        while (peek().kind() == Kind.STAR || peek().kind() == Kind.SLASH || peek().kind() == Kind.PERCENT) {
            Token op = take();
            double right = unary();
            if (op.kind() != Kind.STAR && right == 0) {
                throw new ExpressionException(op.kind() == Kind.SLASH ? "division by zero" : "modulo by zero", op.position());
            }
            value = checked(switch (op.kind()) {
                case STAR -> value * right;
                case SLASH -> value / right;
                default -> value % right;
            }, op);
        }
        return value;
    }

    private double unary() {
        Token sign = peek();
        if (++depth > MAX_DEPTH) {
            throw new ExpressionException("expression is too deeply nested (more than " + MAX_DEPTH + " levels)",
                    sign.position());
        }
        try {
            if (sign.kind() == Kind.MINUS || sign.kind() == Kind.PLUS) {
                take();
                double operand = unary();
                return sign.kind() == Kind.MINUS ? -operand : operand;
            }
            return power();
        } finally {
            depth--;
        }
    }

    private double power() {
        double base = primary();
        if (peek().kind() == Kind.CARET) {
            Token op = take();
            double exponent = unary();
            return checked(Math.pow(base, exponent), op);
        }
        return base;
    }

    private double primary() {
        Token t = take();
        return switch (t.kind()) {
            case NUMBER -> t.value();
            case NAME -> peek().kind() == Kind.LPAREN ? call(t) : MathFunctions.constant(t.text(), t.position());
            case LPAREN -> {
                double inner = expression();
                close(t);
                yield inner;
            }
            case END -> throw new ExpressionException("incomplete expression: expected a number, a name or '('"
                    + " but reached the end", t.position());
            default -> throw new ExpressionException("expected a number, a name or '(' but found " + t.shown(), t.position());
        };
    }

    private double call(Token name) {
        MathFunctions.requireFunction(name.text(), name.position());
        Token open = take();
        List<Double> args = new ArrayList<>();
        if (peek().kind() != Kind.RPAREN) {
            args.add(expression());
            while (peek().kind() == Kind.COMMA) {
                take();
                args.add(expression());
            }
        }
        close(open);
        return checked(MathFunctions.call(name.text(), args, name.position()), name);
    }

    private void close(Token open) {
        Token t = take();
        if (t.kind() == Kind.RPAREN) {
            return;
        }
        if (t.kind() == Kind.END) {
            throw new ExpressionException("unbalanced parenthesis: '(' is never closed", open.position());
        }
        throw new ExpressionException("expected ')' to close the '(' at position " + open.position()
                + " but found " + t.shown(), t.position());
    }

    /** Refuses results that are not finite numbers, naming the operator or function that produced them. */
    private static double checked(double value, Token at) {
        if (Double.isNaN(value)) {
            throw new ExpressionException("the result of " + at.shown() + " is not a real number", at.position());
        }
        if (Double.isInfinite(value)) {
            throw new ExpressionException("the result of " + at.shown() + " is too large (overflow)", at.position());
        }
        return value;
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        Token t = tokens.get(next);
        if (t.kind() != Kind.END) {
            next++;
        }
        return t;
    }
}
