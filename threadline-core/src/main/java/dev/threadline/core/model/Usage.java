package dev.threadline.core.model;

/**
 * Token usage of one model call, or a running total. Never negative.
 *
 * <p>The convention is Anthropic's, which keeps the three kinds of input apart: {@code inputTokens}
 * are the input tokens read without the prompt cache, {@code cacheReadTokens} those read from it and
 * {@code cacheWriteTokens} those written to it. A provider whose API reports cached tokens as part of
 * the prompt (OpenAI's {@code prompt_tokens} with {@code cached_tokens}) subtracts them from
 * {@code inputTokens}. So {@link #promptTokens()} is the whole input of a call (the size of the
 * context it saw) and {@link #totalTokens()} everything it processed.
 */
public record Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens) {
    /** No tokens. */
    public static final Usage ZERO = new Usage(0, 0, 0, 0);

    public Usage {
        if (inputTokens < 0 || outputTokens < 0 || cacheReadTokens < 0 || cacheWriteTokens < 0) {
            throw new dev.threadline.core.error.InvalidInputException("usage", "token counts must not be negative, got "
                    + inputTokens + "/" + outputTokens + "/" + cacheReadTokens + "/" + cacheWriteTokens
                    + " (input/output/cache read/cache write)");
        }
    }

    /** Input and output tokens, no cache tokens. */
    public static Usage of(long inputTokens, long outputTokens) {
        return new Usage(inputTokens, outputTokens, 0, 0);
    }

    /** The sum of this usage and {@code other} (null counts as zero). */
    public Usage plus(Usage other) {
        if (other == null) {
            return this;
        }
        return new Usage(inputTokens + other.inputTokens, outputTokens + other.outputTokens,
                cacheReadTokens + other.cacheReadTokens, cacheWriteTokens + other.cacheWriteTokens);
    }

    /** The whole input: uncached, cache-read and cache-written tokens. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public long promptTokens() {
        return inputTokens + cacheReadTokens + cacheWriteTokens;
    }

    /** Everything processed: the whole input plus the output. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public long totalTokens() {
        return promptTokens() + outputTokens;
    }
}
