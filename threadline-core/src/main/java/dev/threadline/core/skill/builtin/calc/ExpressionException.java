package dev.threadline.core.skill.builtin.calc;

/**
 * An arithmetic expression that cannot be evaluated: the reason, and the 1-based character position
 * where the problem is (0 when it concerns the whole expression).
 */
public final class ExpressionException extends RuntimeException {
    private final String reason;
    private final int position;

    /** A refusal of an expression for {@code reason} at 1-based {@code position} (0: no position). */
    public ExpressionException(String reason, int position) {
        super(position > 0 ? reason + " at position " + position : reason);
        this.reason = reason;
        this.position = position;
    }

    /** What is wrong, without the position. */
    public String reason() {
        return reason;
    }

    /** 1-based character position of the problem; 0 when it concerns the whole expression. */
    public int position() {
        return position;
    }
}
