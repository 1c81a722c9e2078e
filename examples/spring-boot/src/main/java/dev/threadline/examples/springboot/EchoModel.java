package dev.threadline.examples.springboot;

import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/** An offline Spring AI chat model: answers with every user message the prompt holds, so memory shows in the reply. */
final class EchoModel implements ChatModel {
    @Override
    public ChatResponse call(Prompt prompt) {
        List<String> said = prompt.getInstructions().stream().filter(m -> m.getMessageType() == MessageType.USER)
                .map(m -> m.getText()).toList();
        return new ChatResponse(List.of(new Generation(new AssistantMessage("you said " + said.size() + ": " + String.join(" | ", said)))));
    }
}
