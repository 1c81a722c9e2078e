package dev.threadline.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.threadline.core.Threadline;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.TranscriptValidator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** LangChain4j's AiServices with a tool, a scripted model and the Threadline memory: the whole loop lands in the journal, paired. */
class AiServicesTest {
    private final Threadline tl = Fixtures.runtime();

    @AfterEach
    void close() {
        tl.close();
    }

    interface Assistant {
        @dev.langchain4j.service.SystemMessage("You add numbers with the tool.")
        String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String text);
    }

    static final class Calculator {
        @Tool("adds two numbers")
        int add(@P("a") int a, @P("b") int b) {
            return a + b;
        }
    }

    /** Asks for the tool on a new question, answers with the tool's result once it is there; records what it saw. */
    static final class Scripted implements ChatModel {
        final List<List<ChatMessage>> seen = new ArrayList<>();

        @Override
        public ChatResponse doChat(ChatRequest request) {
            seen.add(request.messages());
            ChatMessage last = request.messages().getLast();
            AiMessage reply = last instanceof ToolExecutionResultMessage r
                    ? AiMessage.from("the sum is " + r.text())
                    : AiMessage.from(ToolExecutionRequest.builder().id("call_" + seen.size()).name("add").arguments("{\"a\":2,\"b\":3}").build());
            return ChatResponse.builder().aiMessage(reply).build();
        }
    }

    @Test
    void a_tool_calling_conversation_is_kept_paired_and_resumed_from_the_journal() {
        Scripted model = new Scripted();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).tools(new Calculator())
                .chatMemoryProvider(id -> ThreadlineChatMemory.builder(tl.tenant("acme")).id(id).maxMessages(20).build()).build();

        assertThat(assistant.chat("u1", "what is 2+3?")).isEqualTo("the sum is 5");
        assertThat(assistant.chat("u1", "and again?")).isEqualTo("the sum is 5");

        List<ChatMessage> memory = new ThreadlineChatMemoryStore(tl.tenant("acme")).getMessages("u1");
        assertThat(memory).hasSize(9);
        assertThat(memory.getFirst()).isEqualTo(SystemMessage.from("You add numbers with the tool."));
        assertThat(memory.get(1)).isEqualTo(UserMessage.from("what is 2+3?"));
        assertThat(((AiMessage) memory.get(2)).toolExecutionRequests()).singleElement().extracting(ToolExecutionRequest::id).isEqualTo("call_1");
        assertThat(((ToolExecutionResultMessage) memory.get(3)).text()).isEqualTo("5");
        // the model's second call of the second question saw the whole first exchange, read back from the journal
        assertThat(model.seen.get(3)).hasSize(8).startsWith(memory.subList(0, 5).toArray(ChatMessage[]::new));

        var transcript = tl.tenant("acme").open("u1").state().messages();
        assertThat(transcript).extracting(m -> m.role()).containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT,
                Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);
        assertThat(TranscriptValidator.violations(transcript, TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }
}
