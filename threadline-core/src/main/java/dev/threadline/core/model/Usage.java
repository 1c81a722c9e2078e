package dev.threadline.core.model;

/** Token usage of one model call, or a running total. Never negative. */
public record Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens) {
    public static final Usage ZERO = new Usage(0, 0, 0, 0);

    public Usage {
        if (inputTokens < 0 || outputTokens < 0 || cacheReadTokens < 0 || cacheWriteTokens < 0) {
            throw new dev.threadline.core.InvalidInputException("usage", "token counts must not be negative");
        }
    }

    public static Usage of(long inputTokens, long outputTokens) {
        return new Usage(inputTokens, outputTokens, 0, 0);
    }

    public Usage plus(Usage other) {
        if (other == null) {
            return this;
        }
        return new Usage(inputTokens + other.inputTokens, outputTokens + other.outputTokens,
                cacheReadTokens + other.cacheReadTokens, cacheWriteTokens + other.cacheWriteTokens);
    }

    public long totalTokens() {
        return inputTokens + outputTokens;
    }
}
