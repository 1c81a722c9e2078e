package dev.threadline.examples.springai;

import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.springai.ThreadlineChatMemoryRepository;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.function.FunctionToolCallback;

/**
 * Spring AI's own {@link MessageWindowChatMemory} over {@link ThreadlineChatMemoryRepository} on a SQLite
 * file, in Spring AI's user-controlled tool execution loop ({@link ToolCallingManager}): the tool call and
 * its result are kept in the memory (Spring AI's JDBC repository drops both), and a second runtime on the
 * same file reads the conversation back. The model is {@link OfflineAdder}, a real Spring AI
 * {@link ChatModel} implementation that needs no network. Argument: a folder for the database (default: a
 * new temporary one).
 */
public final class Main {

    /** The tool's arguments. */
    public record Numbers(long a, long b) {}

    /** A Spring AI chat model that runs offline: asks for {@code add} with the numbers of the question, then reports the result. */
    static final class OfflineAdder implements ChatModel {
        @Override
        public ChatResponse call(Prompt prompt) {
            List<Message> messages = prompt.getInstructions();
            AssistantMessage reply;
            if (messages.getLast() instanceof ToolResponseMessage result) {
                reply = new AssistantMessage("The sum is " + result.getResponses().getFirst().responseData() + ".");
            } else {
                String[] numbers = messages.getLast().getText().replaceAll("[^0-9]+", " ").trim().split(" ");
                reply = AssistantMessage.builder().content("").toolCalls(List.of(new AssistantMessage.ToolCall(
                        "call-" + messages.size(), "function", "add", "{\"a\":" + numbers[0] + ",\"b\":" + numbers[1] + "}"))).build();
            }
            return new ChatResponse(List.of(new Generation(reply)));
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-spring-ai");
        Path db = dir.resolve("memory.db");
        ToolCallback add = FunctionToolCallback.builder("add", (Function<Numbers, Long>) n -> n.a() + n.b())
                .description("adds two numbers").inputType(Numbers.class).build();
        // the loop below runs the tools itself (user-controlled tool execution): the offline model never does
        ChatOptions options = ToolCallingChatOptions.builder().toolCallbacks(add).build();

        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) { // no Threadline model: Spring AI calls its own
            ChatMemory memory = memory(tl.tenant("acme"));
            System.out.println("answer: " + ask(memory, "conversation-1", "what is 2 + 3?", options));
            System.out.println("answer: " + ask(memory, "conversation-1", "and 40 + 2?", options));
        }
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) { // as a second process would
            ThreadlineChatMemoryRepository repository = new ThreadlineChatMemoryRepository(tl.tenant("acme"));
            List<Message> kept = repository.findByConversationId("conversation-1");
            System.out.println("read back: " + kept.stream().map(m -> m.getMessageType().getValue()).toList());
            System.out.println("conversations: " + repository.findConversationIds());
        }
    }

    /** Spring AI's loop with memory and user-controlled tool execution, as its reference documentation shows it. */
    static String ask(ChatMemory memory, String conversation, String question, ChatOptions options) {
        ChatModel model = new OfflineAdder();
        ToolCallingManager tools = ToolCallingManager.builder().build();
        memory.add(conversation, new UserMessage(question));
        Prompt prompt = new Prompt(memory.get(conversation), options);
        ChatResponse response = model.call(prompt);
        memory.add(conversation, response.getResult().getOutput());
        while (response.hasToolCalls()) {
            ToolExecutionResult executed = tools.executeToolCalls(prompt, response);
            memory.add(conversation, executed.conversationHistory().getLast()); // the ToolResponseMessage
            prompt = new Prompt(memory.get(conversation), options);
            response = model.call(prompt);
            memory.add(conversation, response.getResult().getOutput());
        }
        return response.getResult().getOutput().getText();
    }

    private static ChatMemory memory(Tenant tenant) {
        return MessageWindowChatMemory.builder().chatMemoryRepository(new ThreadlineChatMemoryRepository(tenant)).maxMessages(20).build();
    }
}
