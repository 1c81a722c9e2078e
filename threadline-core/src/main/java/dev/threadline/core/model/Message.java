package dev.threadline.core.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One transcript entry. Immutable. Assistant messages carry the stop reason and usage of the call
 * that produced them; other roles leave both null.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Message(Role role, List<ContentBlock> content, StopReason stopReason, Usage usage) {

    public Message {
        Require.nonNull(role, "message.role");
        Require.nonNull(content, "message.content");
        content = List.copyOf(content);
        for (ContentBlock block : content) {
            boolean allowed = switch (block) {
                case ContentBlock.ToolUse t -> role == Role.ASSISTANT;
                case ContentBlock.ToolResult r -> role == Role.TOOL;
                case ContentBlock.Thinking t -> role == Role.ASSISTANT;
                default -> role != Role.TOOL;
            };
            if (!allowed) {
                throw new InvalidInputException("message.content",
                        "a " + role.wireName() + " message cannot hold a " + block.getClass().getSimpleName() + " block");
            }
        }
        if (role != Role.ASSISTANT && (stopReason != null || usage != null)) {
            throw new InvalidInputException("message", "only assistant messages carry stop_reason and usage");
        }
    }

    /** A user message with one text block. */
    public static Message user(String text) {
        return new Message(Role.USER, List.of(ContentBlock.text(text)), null, null);
    }

    /** A system message with one text block. */
    public static Message system(String text) {
        return new Message(Role.SYSTEM, List.of(ContentBlock.text(text)), null, null);
    }

    /** An assistant message: the model's blocks, why it stopped and what the call cost. */
    public static Message assistant(List<ContentBlock> content, StopReason stopReason, Usage usage) {
        return new Message(Role.ASSISTANT, content, stopReason, usage);
    }

    /** An assistant message with one text block that ends the turn. */
    public static Message assistantText(String text) {
        return assistant(List.of(ContentBlock.text(text)), StopReason.END_TURN, Usage.ZERO);
    }

    /** The tool message answering the calls of the assistant message before it, results in call order. */
    public static Message toolResults(List<ContentBlock.ToolResult> results) {
        return new Message(Role.TOOL, List.copyOf(results), null, null);
    }

    /** The text blocks joined by newlines (empty when there are none). */
    @JsonIgnore
    public String text() {
        return content.stream().<String>mapMulti((b, out) -> {
            if (b instanceof ContentBlock.Text t) {
                out.accept(t.text());
            }
        }).collect(Collectors.joining("\n"));
    }

    /** The tool_use blocks of this message, in order (empty for all but assistant messages). */
    @JsonIgnore
    public List<ContentBlock.ToolUse> toolUses() {
        return content.stream().<ContentBlock.ToolUse>mapMulti((b, out) -> {
            if (b instanceof ContentBlock.ToolUse u) {
                out.accept(u);
            }
        }).toList();
    }

    /** The tool_result blocks of this message, in order (empty for all but tool messages). */
    @JsonIgnore
    public List<ContentBlock.ToolResult> toolResults() {
        return content.stream().<ContentBlock.ToolResult>mapMulti((b, out) -> {
            if (b instanceof ContentBlock.ToolResult r) {
                out.accept(r);
            }
        }).toList();
    }
}
