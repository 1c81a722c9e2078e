package dev.threadline.models.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.StopReason;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import dev.threadline.core.log.Logs;
import org.slf4j.Logger;

/**
 * Rules every provider applies to a reply, so they behave alike:
 * <ul>
 *   <li>tool arguments are always a JSON object: text that is not one is kept as {@code {"_raw": text}},
 *       which the skill's argument validation then refuses with a clear {@code is_error} result the
 *       model can correct, instead of the call crashing;</li>
 *   <li>never a half-written tool call: when the reply stopped at max_tokens, a tool_use that is its
 *       last block was being written when the limit hit, so it is dropped (the text before it stays,
 *       and the stop reason stays max_tokens).</li>
 * </ul> Stateless: safe from any thread.
 */
public final class Replies {
    /** The key that holds tool arguments that were not a JSON object. */
    public static final String RAW_ARGUMENTS = "_raw";
    private static final Logger LOG = Logs.get(Replies.class);

    private Replies() {}

    /** Tool arguments as a JSON object: blank = {@code {}}, anything else that is not an object = {@code {"_raw": text}}. */
    public static JsonNode toolInput(String raw) {
        if (raw == null || raw.isBlank()) {
            return Json.object();
        }
        JsonNode parsed = parseObject(raw);
        return parsed != null ? parsed : Json.object().put(RAW_ARGUMENTS, raw);
    }

    /** Tool arguments already parsed by the provider; an object is kept, anything else is wrapped as {@code _raw}. */
    public static JsonNode toolInput(JsonNode input) {
        if (input == null || input.isNull() || input.isMissingNode()) {
            return Json.object();
        }
        return input.isObject() ? input : Json.object().put(RAW_ARGUMENTS, input.toString());
    }

    /** {@code raw} parsed, when it is a complete JSON object; otherwise null. */
    public static JsonNode parseObject(String raw) {
        try {
            JsonNode node = Json.mapper().readTree(raw);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** {@code blocks} without a trailing tool_use when the reply stopped at max_tokens. */
    public static List<ContentBlock> withoutCutOffToolUse(List<ContentBlock> blocks, StopReason stopReason) {
        if (stopReason != StopReason.MAX_TOKENS || blocks.isEmpty() || !(blocks.getLast() instanceof ContentBlock.ToolUse cut)) {
            return blocks;
        }
        LOG.info("dropped tool_use {} ({}): the reply hit max_tokens while writing it", cut.id(), cut.name());
        List<ContentBlock> kept = new ArrayList<>(blocks);
        kept.removeLast();
        return kept;
    }

    /** A fresh tool_use id, for servers that send a tool call without one. */
    public static String newToolUseId() {
        return "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }
}
