package dev.threadline.core.model;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;

/** One block of a message's content; every kind is an immutable record. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ContentBlock.Text.class, name = "text"),
    @JsonSubTypes.Type(value = ContentBlock.ToolUse.class, name = "tool_use"),
    @JsonSubTypes.Type(value = ContentBlock.ToolResult.class, name = "tool_result"),
    @JsonSubTypes.Type(value = ContentBlock.Thinking.class, name = "thinking"),
    @JsonSubTypes.Type(value = ContentBlock.ImageRef.class, name = "image_ref")
})
public sealed interface ContentBlock {

    /** A text block. */
    static Text text(String text) {
        return new Text(text);
    }

    /** Plain text. */
    record Text(String text) implements ContentBlock {
        public Text {
            Require.nonNull(text, "text");
        }
    }

    /** The model asks to run skill {@code name} with {@code input}; {@code id} pairs it with its result. */
    record ToolUse(String id, String name, JsonNode input) implements ContentBlock {
        public ToolUse {
            Require.nonBlank(id, "tool_use.id");
            Require.nonBlank(name, "tool_use.name");
            Require.nonNull(input, "tool_use.input");
        }
    }

    /** The answer to the tool_use with id {@code toolUseId}. */
    record ToolResult(String toolUseId, String content, boolean isError) implements ContentBlock {
        public ToolResult {
            Require.nonBlank(toolUseId, "tool_result.tool_use_id");
            Require.nonNull(content, "tool_result.content");
        }
    }

    /** The model's visible reasoning; {@code signature} is the provider's opaque proof, if any. */
    record Thinking(String thinking, String signature) implements ContentBlock {
        public Thinking {
            Require.nonNull(thinking, "thinking");
        }
    }

    /** A reference to an image stored elsewhere (the bytes are never inlined into the journal). */
    record ImageRef(String uri, String mediaType) implements ContentBlock {
        public ImageRef {
            Require.nonBlank(uri, "image_ref.uri");
        }
    }
}
