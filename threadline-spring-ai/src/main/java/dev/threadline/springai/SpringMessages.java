package dev.threadline.springai;

import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.ToolArguments;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Maps Spring AI messages to Threadline's and back. User and system: text. Assistant: text and tool
 * calls (arguments as {@link ToolArguments} keeps them, ids as {@link CallIds} maps them; the call type
 * reads back as {@code function}). Tool response: one Threadline tool message, a result per response (the tool name
 * reads back from its call). Metadata beyond the message type and media are not kept. Stateless.
 */
final class SpringMessages {
    /** How many messages were converted, either way (the tests count them per step). */
    static final LongAdder CONVERSIONS = new LongAdder();

    private SpringMessages() {}

    static Item toItem(org.springframework.ai.chat.messages.Message m) {
        CONVERSIONS.increment();
        return switch (m) {
            case null -> throw new IllegalArgumentException("messages cannot contain null elements");
            case SystemMessage s -> new Item.Sys(s.getText());
            case UserMessage u -> {
                if (!u.getMedia().isEmpty()) {
                    throw new IllegalArgumentException("a user message's media cannot be stored in a Threadline conversation");
                }
                yield new Item.Msg(Message.user(u.getText()));
            }
            case AssistantMessage a -> new Item.Msg(assistant(a, CallIds::neutral));
            case ToolResponseMessage t -> new Item.Msg(Message.toolResults(t.getResponses().stream()
                    .map(r -> new ContentBlock.ToolResult(CallIds.neutral(r.id()), r.responseData() == null ? "" : r.responseData(), false))
                    .toList()));
            default -> throw new IllegalArgumentException("a " + m.getMessageType() + " message of type "
                    + m.getClass().getName() + " cannot be stored");
        };
    }

    /** An assistant message; {@code ids} turns each call's id into the stored one. */
    static Message assistant(AssistantMessage a, UnaryOperator<String> ids) {
        if (!a.getMedia().isEmpty()) {
            throw new IllegalArgumentException("an assistant message's media cannot be stored in a Threadline conversation");
        }
        List<ContentBlock> blocks = new ArrayList<>();
        if (a.getText() != null) {
            blocks.add(ContentBlock.text(a.getText()));
        }
        for (AssistantMessage.ToolCall c : a.getToolCalls()) {
            if (c.name() == null || c.name().isBlank()) {
                throw new IllegalArgumentException("a tool call without a name cannot be stored (id " + c.id() + ")");
            }
            blocks.add(new ContentBlock.ToolUse(ids.apply(c.id()), c.name(), ToolArguments.toInput(c.arguments())));
        }
        return Message.assistant(blocks, a.hasToolCalls() ? StopReason.TOOL_USE : StopReason.END_TURN, Usage.ZERO);
    }

    /** A Threadline message as Spring AI's; {@code calls} is the assistant message a tool message answers. */
    static org.springframework.ai.chat.messages.Message toSpring(Message m, Message calls) {
        return switch (m.role()) {
            case USER -> new UserMessage(m.text());
            case SYSTEM -> new SystemMessage(m.text());
            case ASSISTANT -> AssistantMessage.builder().content(hasText(m) ? m.text() : null)
                    .toolCalls(m.toolUses().stream().map(u -> new AssistantMessage.ToolCall(CallIds.decode(u.id()), "function", u.name(),
                            ToolArguments.toText(u.input()))).toList())
                    .build();
            case TOOL -> ToolResponseMessage.builder().responses(m.toolResults().stream()
                    .map(r -> new ToolResponseMessage.ToolResponse(CallIds.decode(r.toolUseId()), nameOf(calls, r.toolUseId()), r.content()))
                    .toList()).metadata(Map.of()).build();
        };
    }

    private static boolean hasText(Message m) {
        return m.content().stream().anyMatch(b -> b instanceof ContentBlock.Text);
    }

    private static String nameOf(Message calls, String toolUseId) {
        if (calls != null) {
            for (ContentBlock.ToolUse u : calls.toolUses()) {
                if (u.id().equals(toolUseId)) {
                    return u.name();
                }
            }
        }
        return null;
    }
}
