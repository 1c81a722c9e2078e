package dev.threadline.examples.springboot;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot 4 chat service: {@code POST /chat/{conversation}} with a message as the body answers it through a
 * {@link ChatClient} whose {@link MessageChatMemoryAdvisor} keeps the conversation in Threadline. The only Threadline
 * code is none: the starter makes the {@link ChatMemory} from {@code threadline.store} and {@code threadline.tenant}
 * (application.properties). The model is {@link EchoModel}, offline.
 */
@SpringBootApplication
public class Main {
    public static void main(String[] args) {
        SpringApplication.run(Main.class, args);
    }

    @Bean
    ChatModel chatModel() {
        return new EchoModel();
    }

    @Bean
    ChatClient chatClient(ChatModel model, ChatMemory memory) {
        return ChatClient.builder(model).defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build()).build();
    }
}
