package dev.threadline.cli;

import dev.threadline.core.context.ContextRecall;
import dev.threadline.core.error.InvalidInputException;

/** The {@code --recall K[:TOKENS]} option's text form. Stateless. */
final class RecallSpec {
    /** The token budget when none is given. */
    static final int DEFAULT_TOKENS = 2_000;

    private RecallSpec() {}

    /**
     * {@code K} or {@code K:TOKENS}.
     *
     * @throws InvalidInputException naming the option and the accepted form when {@code spec} is not one
     */
    static ContextRecall parse(String spec) {
        String[] parts = spec.strip().split(":", -1);
        try {
            if (parts.length == 1 || parts.length == 2) {
                int k = Integer.parseInt(parts[0].strip());
                int tokens = parts.length == 2 ? Integer.parseInt(parts[1].strip()) : DEFAULT_TOKENS;
                return new ContextRecall(k, tokens);
            }
        } catch (NumberFormatException e) {
            // said below
        } catch (InvalidInputException e) {
            throw new InvalidInputException("--recall", "'" + spec + "': " + e.getMessage());
        }
        throw new InvalidInputException("--recall", "'" + spec + "' is not K or K:TOKENS (e.g. 5 or 5:3000)");
    }
}
