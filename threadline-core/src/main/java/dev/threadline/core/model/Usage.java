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
 *
 * <p>{@code costMicros} is what the call cost in millionths of the operator's price table's currency
 * ({@code PriceTable}), worked out by the runtime when it records the reply (so a later change of
 * prices leaves the journal as it was); 0 when the model has no price. It is stored only when not 0.
 *
 * @param inputTokens      input tokens read without the prompt cache
 * @param outputTokens     output tokens
 * @param cacheReadTokens  input tokens read from the prompt cache
 * @param cacheWriteTokens input tokens written to the prompt cache
 * @param costMicros       the cost in millionths of the price table's currency (0: no price)
 */
public record Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
                    long costMicros) {
    /** No tokens. */
    public static final Usage ZERO = new Usage(0, 0, 0, 0);

    /** @throws dev.threadline.core.error.InvalidInputException when a count or the cost is negative */
    public Usage {
        if (inputTokens < 0 || outputTokens < 0 || cacheReadTokens < 0 || cacheWriteTokens < 0 || costMicros < 0) {
            throw new dev.threadline.core.error.InvalidInputException("usage", "token counts and cost must not be negative, got "
                    + inputTokens + "/" + outputTokens + "/" + cacheReadTokens + "/" + cacheWriteTokens + "/" + costMicros
                    + " (input/output/cache read/cache write/cost micros)");
        }
    }

    /** The stored form: journals written before costs were recorded have no {@code costMicros} (read as 0). */
    @com.fasterxml.jackson.annotation.JsonCreator
    static Usage stored(@com.fasterxml.jackson.annotation.JsonProperty("inputTokens") long inputTokens,
                        @com.fasterxml.jackson.annotation.JsonProperty("outputTokens") long outputTokens,
                        @com.fasterxml.jackson.annotation.JsonProperty("cacheReadTokens") long cacheReadTokens,
                        @com.fasterxml.jackson.annotation.JsonProperty("cacheWriteTokens") long cacheWriteTokens,
                        @com.fasterxml.jackson.annotation.JsonProperty("costMicros") Long costMicros) {
        return new Usage(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costMicros == null ? 0 : costMicros);
    }

    /** Token counts without a cost (what a provider reports). */
    public Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens) {
        this(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, 0);
    }

    /** These token counts with cost {@code micros} (millionths of the price table's currency). */
    public Usage withCostMicros(long micros) {
        return new Usage(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, micros);
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
                cacheReadTokens + other.cacheReadTokens, cacheWriteTokens + other.cacheWriteTokens, costMicros + other.costMicros);
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
