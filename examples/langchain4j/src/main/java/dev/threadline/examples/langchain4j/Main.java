package dev.threadline.examples.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.langchain4j.ThreadlineChatMemory;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * LangChain4j's own AiServices loop, with a tool, over {@link ThreadlineChatMemory} on a SQLite file:
 * each message is appended once (never the whole list rewritten), tool calls stay paired with their
 * results, and a second process (here: a second runtime on the same file) continues the conversation.
 * The model is {@link OfflineAdder}, a real {@link ChatModel} implementation that needs no network.
 * Argument: a folder for the database (default: a new temporary one).
 */
public final class Main {

    interface Assistant {
        @dev.langchain4j.service.SystemMessage("You add numbers with the add tool.")
        String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String text);
    }

    static final class Calculator {
        @Tool("adds two numbers")
        long add(@P("a") long a, @P("b") long b) {
            return a + b;
        }
    }

    /** A LangChain4j chat model that runs offline: asks for {@code add} with the two numbers of the last question, then reports the result. */
    static final class OfflineAdder implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            AiMessage reply;
            if (messages.getLast() instanceof ToolExecutionResultMessage result) {
                reply = AiMessage.from("The sum is " + result.text() + ".");
            } else {
                String question = ((UserMessage) messages.getLast()).singleText();
                String[] numbers = question.replaceAll("[^0-9]+", " ").trim().split(" ");
                reply = AiMessage.from(ToolExecutionRequest.builder().id("call-" + messages.size()).name("add")
                        .arguments("{\"a\":" + numbers[0] + ",\"b\":" + numbers[1] + "}").build());
            }
            return ChatResponse.builder().aiMessage(reply).build();
        }
    }

    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-lc4j");
        Path db = dir.resolve("memory.db");

        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) { // no Threadline model: LangChain4j calls its own
            Assistant assistant = assistant(tl.tenant("acme"));
            System.out.println("answer: " + assistant.chat("user-7", "what is 2 + 3?"));
        }
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) { // as a second process would
            Tenant tenant = tl.tenant("acme");
            System.out.println("answer: " + assistant(tenant).chat("user-7", "and 40 + 2?"));
            ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tenant).id("user-7").build();
            System.out.println("memory: " + memory.messages().size() + " messages, "
                    + memory.messages().stream().filter(m -> m instanceof ToolExecutionResultMessage).count() + " tool results");
            System.out.println("journal: " + memory.session().history().journal().size() + " events, transcript roles "
                    + memory.session().state().messages().stream().map(m -> m.role().wireName()).toList());
        }
    }

    private static Assistant assistant(Tenant tenant) {
        return AiServices.builder(Assistant.class).chatModel(new OfflineAdder()).tools(new Calculator())
                .chatMemoryProvider(id -> ThreadlineChatMemory.builder(tenant).id(id).maxMessages(20).build())
                .build();
    }
}
