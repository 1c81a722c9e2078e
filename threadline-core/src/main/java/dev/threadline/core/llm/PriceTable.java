package dev.threadline.core.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import dev.threadline.core.model.Usage;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the operator pays for models: per model, a price per million input, output, cache-read and
 * cache-write tokens, in one currency of the operator's choice (the table does not name it). The runtime
 * prices each model reply with it when it records the reply ({@link Usage#costMicros()}), so the journal
 * keeps what a turn cost at the prices of its day. A model is found by its exact spec (as sessions name
 * it, e.g. {@code anthropic:claude-sonnet-4-5}) or else by the longest pattern ending in {@code *} that
 * it starts with ({@code openai:*}); a model found by neither costs nothing. An immutable value: safe to
 * share between threads.
 *
 * @param prices each model spec or pattern with its price
 */
public record PriceTable(Map<String, Price> prices) {
    /** No prices: every call costs 0. */
    public static final PriceTable NONE = new PriceTable(Map.of());

    /** @throws InvalidInputException when a key is blank or a price is null */
    public PriceTable {
        Require.nonNull(prices, "prices");
        for (Map.Entry<String, Price> e : prices.entrySet()) {
            Require.nonBlank(e.getKey(), "prices");
            Require.nonNull(e.getValue(), "prices." + e.getKey());
        }
        prices = Map.copyOf(prices);
    }

    /**
     * One model's prices per million tokens; cache prices default to the input price when not given.
     *
     * @param input      per million input tokens read without the cache
     * @param output     per million output tokens
     * @param cacheRead  per million input tokens read from the prompt cache
     * @param cacheWrite per million input tokens written to the prompt cache
     */
    public record Price(BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite) {
        /** @throws InvalidInputException when a price is missing or negative */
        public Price {
            for (BigDecimal p : new BigDecimal[] {input, output, cacheRead, cacheWrite}) {
                Require.argument(p != null && p.signum() >= 0, "price", "prices must be given and not negative, were "
                        + input + "/" + output + "/" + cacheRead + "/" + cacheWrite + " (input/output/cache read/cache write)");
            }
        }

        /**
         * What {@code usage} costs at these prices, in millionths of the currency, rounded half up: a price per million
         * tokens in currency units is a price per token in millionths.
         */
        public long costMicros(Usage usage) {
            BigDecimal micros = input.multiply(BigDecimal.valueOf(usage.inputTokens()))
                    .add(output.multiply(BigDecimal.valueOf(usage.outputTokens())))
                    .add(cacheRead.multiply(BigDecimal.valueOf(usage.cacheReadTokens())))
                    .add(cacheWrite.multiply(BigDecimal.valueOf(usage.cacheWriteTokens())));
            return micros.setScale(0, RoundingMode.HALF_UP).longValueExact();
        }
    }

    /** The price of {@code model}: its exact spec, else the longest matching {@code prefix*} pattern. */
    public Optional<Price> priceOf(String model) {
        if (model == null) {
            return Optional.empty();
        }
        Price exact = prices.get(model);
        if (exact != null) {
            return Optional.of(exact);
        }
        String best = null;
        for (String key : prices.keySet()) {
            if (key.endsWith("*") && model.startsWith(key.substring(0, key.length() - 1))
                    && (best == null || key.length() > best.length())) {
                best = key;
            }
        }
        return best == null ? Optional.empty() : Optional.of(prices.get(best));
    }

    /** {@code usage} with its cost at {@code model}'s price (unchanged when the model has none). */
    public Usage priced(String model, Usage usage) {
        Optional<Price> p = priceOf(model);
        return p.isEmpty() || usage == null ? usage : usage.withCostMicros(p.get().costMicros(usage));
    }

    /**
     * Reads the JSON form: {@code {"anthropic:claude-sonnet-4-5": {"input": 3, "output": 15, "cacheRead": 0.3,
     * "cacheWrite": 3.75}, "openai:*": {"input": 2.5, "output": 10}}} (per million tokens; cache prices default to
     * the input price).
     *
     * @throws InvalidInputException naming the model and field when the form is wrong
     */
    public static PriceTable parse(JsonNode json) {
        if (json == null || json.isNull()) {
            return NONE;
        }
        if (!json.isObject()) {
            throw new InvalidInputException("prices", "must be an object of model spec to prices, was " + json.getNodeType());
        }
        Map<String, Price> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "prices." + e.getKey();
            JsonNode p = e.getValue();
            if (!p.isObject()) {
                throw new InvalidInputException(where, "must be an object {input, output, cacheRead?, cacheWrite?}");
            }
            for (Iterator<String> names = p.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!Set.of("input", "output", "cacheRead", "cacheWrite").contains(name)) {
                    throw new InvalidInputException(where + "." + name, "unknown field; a price takes input, output, cacheRead, cacheWrite");
                }
            }
            BigDecimal input = amount(p, "input", where, null);
            out.put(e.getKey(), new Price(input, amount(p, "output", where, null), amount(p, "cacheRead", where, input),
                    amount(p, "cacheWrite", where, input)));
        }
        return new PriceTable(out);
    }

    private static BigDecimal amount(JsonNode price, String field, String where, BigDecimal fallback) {
        JsonNode v = price.get(field);
        if (v == null || v.isNull()) {
            if (fallback == null) {
                throw new InvalidInputException(where + "." + field, "is required (a price per million tokens)");
            }
            return fallback;
        }
        if (!v.isNumber() || v.decimalValue().signum() < 0) {
            throw new InvalidInputException(where + "." + field, "must be a number of at least 0 (per million tokens), was " + v);
        }
        return v.decimalValue();
    }
}
