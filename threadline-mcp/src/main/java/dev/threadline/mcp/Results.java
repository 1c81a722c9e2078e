package dev.threadline.mcp;

import dev.threadline.core.json.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool result as the text a skill result holds: text contents as they are, embedded text resources by
 * their text, and for binary contents (images, audio, blobs) and resource links a short note instead of
 * the bytes (the journal never inlines bytes). Structured content is used when there is no content.
 */
final class Results {
    private Results() {}

    static String text(McpSchema.CallToolResult result) {
        List<String> parts = new ArrayList<>();
        if (result.content() != null) {
            for (McpSchema.Content c : result.content()) {
                parts.add(switch (c) {
                    case McpSchema.TextContent t -> t.text();
                    case McpSchema.ImageContent i -> "[image " + i.mimeType() + ", " + i.data().length() + " base64 characters not shown]";
                    case McpSchema.AudioContent a -> "[audio " + a.mimeType() + " not shown]";
                    case McpSchema.ResourceLink l -> "[resource " + l.uri() + (l.name() == null ? "" : " (" + l.name() + ")") + "]";
                    case McpSchema.EmbeddedResource r -> r.resource() instanceof McpSchema.TextResourceContents t
                            ? t.text() : "[resource " + r.resource().uri() + ", binary, not shown]";
                    default -> "[" + c.type() + " content not shown]";
                });
            }
        }
        if (parts.isEmpty() && result.structuredContent() != null) {
            parts.add(Json.write(result.structuredContent()));
        }
        return String.join("\n", parts);
    }
}
