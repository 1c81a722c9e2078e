package dev.threadline.core.state;

import dev.threadline.core.error.Require;
import dev.threadline.core.model.Usage;
import java.math.BigDecimal;

/**
 * What a whole session may spend: tokens (every model call's input and output, summaries included) and
 * cost (millionths of the price table's currency, {@link Usage#costMicros()}); 0 leaves that dimension
 * unlimited. When the session's totals reach either before a model call, the turn suspends durably with
 * status {@code budget_exceeded}: nothing runs and no thread waits; raising the budget
 * ({@code Session.setBudget}) continues it, from any process. An immutable value.
 *
 * @param tokens     the most tokens the session may use (0: no limit)
 * @param costMicros the most it may cost, in millionths of the price table's currency (0: no limit)
 */
public record Budget(long tokens, long costMicros) {
    /** No limit. */
    public static final Budget NONE = new Budget(0, 0);

    /** @throws dev.threadline.core.error.InvalidInputException when a limit is negative */
    public Budget {
        Require.argument(tokens >= 0, "budget.tokens", "must be 0 (no limit) or more, was " + tokens);
        Require.argument(costMicros >= 0, "budget.costMicros", "must be 0 (no limit) or more, was " + costMicros);
    }

    /** A budget of {@code tokens} only. */
    public static Budget ofTokens(long tokens) {
        return new Budget(tokens, 0);
    }

    /** A budget of {@code amount} in the price table's currency only (e.g. {@code "2.50"}). */
    public static Budget ofCost(String amount) {
        return new Budget(0, micros(amount, "budget.cost"));
    }

    /**
     * {@code amount} (a decimal in the price table's currency, at most six decimals) in millionths.
     *
     * @throws dev.threadline.core.error.InvalidInputException naming {@code field} when it is not such a decimal
     */
    public static long micros(String amount, String field) {
        try {
            BigDecimal d = new BigDecimal(amount.strip());
            Require.argument(d.signum() >= 0 && d.scale() <= 6, field, "must be an amount of at least 0 with at most six decimals, was "
                    + amount);
            return d.movePointRight(6).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new dev.threadline.core.error.InvalidInputException(field, "must be an amount such as 2.50, was '" + amount + "'");
        }
    }

    /** Millionths of the price table's currency as an amount with up to six decimals ({@code 105} → {@code 0.000105}). */
    public static String amount(long micros) {
        return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString();
    }

    /** Whether {@code spent} has reached a limit of this budget. */
    public boolean reachedBy(Usage spent) {
        return tokens > 0 && spent.totalTokens() >= tokens || costMicros > 0 && spent.costMicros() >= costMicros;
    }

    /** Why {@code spent} stops the session, for the suspension's reason. */
    public String describe(Usage spent) {
        StringBuilder b = new StringBuilder("the session has used ").append(spent.totalTokens()).append(" tokens");
        if (spent.costMicros() > 0 || costMicros > 0) {
            b.append(" costing ").append(amount(spent.costMicros()));
        }
        b.append("; its budget is ").append(tokens == 0 ? "unlimited tokens" : tokens + " tokens");
        if (costMicros > 0) {
            b.append(" and ").append(amount(costMicros)).append(" in cost");
        }
        return b.append(". Raise it to continue the turn").toString();
    }
}
