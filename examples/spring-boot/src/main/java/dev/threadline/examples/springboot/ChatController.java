package dev.threadline.examples.springboot;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** One route: the body is the user's message, the answer is the model's text. */
@RestController
class ChatController {
    private final ChatClient chat;

    ChatController(ChatClient chat) {
        this.chat = chat;
    }

    @PostMapping(path = "/chat/{conversation}", consumes = "text/plain", produces = "text/plain")
    String chat(@PathVariable String conversation, @RequestBody String message) {
        return chat.prompt().user(message).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation)).call().content();
    }
}
