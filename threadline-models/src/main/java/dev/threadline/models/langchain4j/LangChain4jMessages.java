package dev.threadline.models.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ToolSpec;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.models.internal.Replies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Maps Threadline's request to LangChain4j's messages and tool specifications, and LangChain4j's
 * response back: system prompt and system messages → {@link SystemMessage}; user → {@link UserMessage}
 * (text and image URLs); assistant → {@link AiMessage} with its text, thinking and
 * {@link ToolExecutionRequest}s (arguments as JSON text); our tool message → one
 * {@link ToolExecutionResultMessage} per result, with the tool's name and the error flag.
 */
final class LangChain4jMessages {
    private LangChain4jMessages() {}

    static List<ChatMessage> messages(ChatRequest request) {
        List<ChatMessage> out = new ArrayList<>();
        if (!request.system().isBlank()) {
            out.add(SystemMessage.from(request.system()));
        }
        Map<String, String> toolNames = new HashMap<>();
        for (Message m : request.messages()) {
            switch (m.role()) {
                case SYSTEM -> out.add(SystemMessage.from(m.text()));
                case USER -> out.add(user(m));
                case ASSISTANT -> {
                    m.toolUses().forEach(u -> toolNames.put(u.id(), u.name()));
                    out.add(assistant(m));
                }
                case TOOL -> m.toolResults().forEach(r -> out.add(ToolExecutionResultMessage.builder().id(r.toolUseId())
                        .toolName(toolNames.getOrDefault(r.toolUseId(), "unknown")).text(r.content()).isError(r.isError()).build()));
            }
        }
        return out;
    }

    private static UserMessage user(Message m) {
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

    private static AiMessage assistant(Message m) {
        String thinking = m.content().stream().filter(b -> b instanceof ContentBlock.Thinking)
                .map(b -> ((ContentBlock.Thinking) b).thinking()).collect(Collectors.joining("\n"));
        List<ToolExecutionRequest> calls = m.toolUses().stream().map(u -> ToolExecutionRequest.builder().id(u.id()).name(u.name())
                .arguments(Json.write(u.input())).build()).toList();
        AiMessage.Builder b = AiMessage.builder().toolExecutionRequests(calls);
        if (!m.text().isEmpty()) {
            b.text(m.text());
        }
        if (!thinking.isEmpty()) {
            b.thinking(thinking);
        }
        return b.build();
    }

    static List<ToolSpecification> tools(List<ToolSpec> tools) {
        return tools.stream().map(t -> ToolSpecification.builder().name(t.name()).description(t.description())
                .parameters(JsonSchemas.parameters(t.inputSchema())).build()).toList();
    }

    static ChatResponse response(dev.langchain4j.model.chat.response.ChatResponse r) {
        AiMessage ai = r.aiMessage();
        List<ContentBlock> blocks = new ArrayList<>();
        if (ai.thinking() != null && !ai.thinking().isEmpty()) {
            blocks.add(new ContentBlock.Thinking(ai.thinking(), null));
        }
        if (ai.text() != null && !ai.text().isEmpty()) {
            blocks.add(ContentBlock.text(ai.text()));
        }
        for (ToolExecutionRequest call : ai.toolExecutionRequests()) {
            String id = call.id() == null || call.id().isBlank() ? Replies.newToolUseId() : call.id();
            String name = call.name() == null || call.name().isBlank() ? "unnamed_tool" : call.name();
            blocks.add(new ContentBlock.ToolUse(id, name, Replies.toolInput(call.arguments())));
        }
        StopReason stop = stopReason(r.finishReason(), ai.hasToolExecutionRequests());
        return new ChatResponse(Replies.withoutCutOffToolUse(blocks, stop), stop, usage(r.tokenUsage()));
    }

    static StopReason stopReason(FinishReason finish, boolean hasToolCalls) {
        if (finish == null) {
            return hasToolCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        }
        return switch (finish) {
            case LENGTH -> StopReason.MAX_TOKENS;
            case CONTENT_FILTER -> StopReason.REFUSAL;
            case TOOL_EXECUTION -> StopReason.TOOL_USE;
            default -> hasToolCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        };
    }

    static Usage usage(TokenUsage u) {
        if (u == null) {
            return Usage.ZERO;
        }
        long in = u.inputTokenCount() == null ? 0 : Math.max(0, u.inputTokenCount());
        long out = u.outputTokenCount() == null ? 0 : Math.max(0, u.outputTokenCount());
        return Usage.of(in, out);
    }
}
