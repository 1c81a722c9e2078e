package dev.threadline.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.ToolArguments;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Maps LangChain4j messages to Threadline's and back. User: text and image URLs (a user name and
 * attributes are not kept). AI: thinking, text, tool requests (arguments as {@link ToolArguments} keeps
 * them, ids as {@link CallIds} maps them). Tool result: single or joined text and the error flag (an unknown flag
 * reads back as false). Stateless.
 */
final class Messages {
    /** How many messages were converted, either way (the tests count them per step). */
    static final LongAdder CONVERSIONS = new LongAdder();

    private Messages() {}

    static Message user(UserMessage u) {
        CONVERSIONS.increment();
        List<ContentBlock> blocks = new ArrayList<>();
        for (Content c : u.contents()) {
            if (c instanceof TextContent t) {
                blocks.add(ContentBlock.text(t.text()));
            } else if (c instanceof ImageContent i && i.image().url() != null) {
                blocks.add(new ContentBlock.ImageRef(i.image().url().toString(), i.image().mimeType()));
            } else {
                throw new IllegalArgumentException("a user message's " + c.type()
                        + " content cannot be stored: only text and images by URL are (the journal never inlines bytes)");
            }
        }
        return new Message(Role.USER, blocks, null, null);
    }

    /** An AI message; {@code ids} turns each request's id into the stored one (identity for a canonical form). */
    static Message ai(AiMessage ai, UnaryOperator<String> ids) {
        CONVERSIONS.increment();
        List<ContentBlock> blocks = new ArrayList<>();
        if (ai.thinking() != null) {
            blocks.add(new ContentBlock.Thinking(ai.thinking(), null));
        }
        if (ai.text() != null) {
            blocks.add(ContentBlock.text(ai.text()));
        }
        for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
            if (r.name() == null || r.name().isBlank()) {
                throw new IllegalArgumentException("a tool execution request without a name cannot be stored (id " + r.id() + ")");
            }
            blocks.add(new ContentBlock.ToolUse(ids.apply(r.id()), r.name(), ToolArguments.toInput(r.arguments())));
        }
        return Message.assistant(blocks, ai.hasToolExecutionRequests() ? StopReason.TOOL_USE : StopReason.END_TURN, Usage.ZERO);
    }

    /** The text of a tool result: its text contents joined by newlines. */
    static String resultText(ToolExecutionResultMessage r) {
        List<String> texts = new ArrayList<>();
        for (Content c : r.contents()) {
            if (!(c instanceof TextContent t)) {
                throw new IllegalArgumentException("a tool result's " + c.type() + " content cannot be stored: only text is");
            }
            texts.add(t.text());
        }
        return String.join("\n", texts);
    }

    static UserMessage toUser(Message m) {
        CONVERSIONS.increment();
        List<Content> contents = new ArrayList<>();
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.Text t) {
                contents.add(TextContent.from(t.text()));
            } else if (b instanceof ContentBlock.ImageRef i) {
                contents.add(ImageContent.from(i.uri()));
            }
        }
        return contents.isEmpty() ? UserMessage.from("") : UserMessage.from(contents);
    }

    static AiMessage toAi(Message m) {
        CONVERSIONS.increment();
        String text = joined(m, ContentBlock.Text.class);
        String thinking = joined(m, ContentBlock.Thinking.class);
        List<ToolExecutionRequest> calls = m.toolUses().stream().map(Messages::toRequest).toList();
        return AiMessage.builder().text(text).thinking(thinking).toolExecutionRequests(calls).build();
    }

    static ToolExecutionRequest toRequest(ContentBlock.ToolUse u) {
        return ToolExecutionRequest.builder().id(CallIds.decode(u.id())).name(u.name()).arguments(ToolArguments.toText(u.input())).build();
    }

    static ToolExecutionResultMessage toResult(String id, String toolName, String text, boolean error) {
        return ToolExecutionResultMessage.builder().id(id).toolName(toolName).text(text).isError(error).build();
    }

    private static String joined(Message m, Class<? extends ContentBlock> type) {
        List<String> parts = m.content().stream().filter(type::isInstance)
                .map(b -> b instanceof ContentBlock.Text t ? t.text() : ((ContentBlock.Thinking) b).thinking()).toList();
        return parts.isEmpty() ? null : parts.stream().collect(Collectors.joining("\n"));
    }
}
