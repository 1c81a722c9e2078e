package dev.threadline.core.internal.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.Usage;
import java.io.IOException;

/**
 * The mapper of stored records from record version 3 on (ADR 0025): {@link Json#mapper()} with the
 * redundant fields left out. A {@link Usage} omits its zero token counts (and a zero cost) (most models report no cache
 * tokens: 41 bytes of {@code "cacheReadTokens":0,"cacheWriteTokens":0} on every assistant message) and
 * reads an absent count as zero; everything else is exactly the wire JSON. Reading a version 2 record
 * with it gives the same objects, so old rows need no upgrade. Thread-safe (immutable once built).
 */
final class StoredForm {
    private StoredForm() {}

    static final ObjectMapper MAPPER = Json.mapper().copy().addMixIn(Usage.class, CompactUsage.class);

    /** Leaves out the token counts that are zero; reads them back as zero. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonDeserialize(using = UsageReader.class)
    abstract static class CompactUsage {}

    /** A usage object whose four counts and cost are each optional (absent is 0), strict about anything else. */
    static final class UsageReader extends StdDeserializer<Usage> {
        UsageReader() {
            super(Usage.class);
        }

        @Override
        public Usage deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                return (Usage) ctxt.handleUnexpectedToken(Usage.class, p);
            }
            long input = 0;
            long output = 0;
            long cacheRead = 0;
            long cacheWrite = 0;
            long costMicros = 0;
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                if (p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                    return (Usage) ctxt.handleUnexpectedToken(long.class, p);
                }
                long v = p.getLongValue();
                switch (name) {
                    case "inputTokens" -> input = v;
                    case "outputTokens" -> output = v;
                    case "cacheReadTokens" -> cacheRead = v;
                    case "cacheWriteTokens" -> cacheWrite = v;
                    case "costMicros" -> costMicros = v;
                    default -> ctxt.reportInputMismatch(Usage.class, "unknown usage field '%s'", name);
                }
            }
            return new Usage(input, output, cacheRead, cacheWrite, costMicros);
        }
    }
}
