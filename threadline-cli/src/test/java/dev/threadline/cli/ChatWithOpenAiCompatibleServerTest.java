package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline chat --model openai:... --base-url ...} against a real local server that speaks
 * the OpenAI chat-completions format (as Ollama, vLLM and llama.cpp do): the reply is printed, the
 * tool call runs, and the server sees the model name and the tool result.
 */
class ChatWithOpenAiCompatibleServerTest {
    @TempDir
    Path dir;

    final Deque<String> replies = new ArrayDeque<>();
    LocalChatCompletions server;
    List<JsonNode> requests;
    List<String> authorization;

    @BeforeEach
    void start() {
        server = new LocalChatCompletions(request -> {
            synchronized (replies) {
                return replies.isEmpty() ? "{\"error\":{\"message\":\"no scripted reply\"}}" : replies.poll();
            }
        });
        requests = server.requests;
        authorization = server.authorization;
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url() {
        return server.url();
    }

    private CliTest.Run run(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
        return new CliTest.Run(code, out.toString(), err.toString());
    }

    private static String completion(String message, String finish) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":" + message
                + ",\"finish_reason\":\"" + finish + "\"}],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":8}}";
    }

    @Test
    void theReplyOfALocalOpenAiCompatibleModelIsPrintedAfterItsToolCall() {
        replies.add(completion("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"calculate\",\"arguments\":\"{\\\"expression\\\":\\\"(2+3)*4\\\"}\"}}]}", "tool_calls"));
        replies.add(completion("{\"role\":\"assistant\",\"content\":\"The answer is 20.\"}", "stop"));
        String db = dir.resolve("chat.db").toString();

        CliTest.Run r = run("what is (2+3)*4\n/exit\n", "chat", "--model", "openai:test-model", "--base-url", url(),
                "--db", db, "--session", "s1");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("model: openai:test-model").contains("-> calculate {\"expression\":\"(2+3)*4\"}")
                .contains("<- 20").contains("assistant: The answer is 20.");
        assertThat(requests).hasSize(2);
        assertThat(requests.get(0).get("model").asText()).isEqualTo("test-model");
        assertThat(authorization).containsOnly("null"); // a local server gets no key
        JsonNode messages = requests.get(1).get("messages");
        assertThat(messages.get(messages.size() - 1)).isEqualTo(Json.parse(
                "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"20\"}", "expected"));

        CliTest.Run history = run("/history\n", "chat", "--model", "openai:test-model", "--base-url", url(), "--db", db, "--session", "s1");
        assertThat(history.out()).contains("resumed").contains("The answer is 20.");
    }

    @Test
    void aModelErrorIsShownOnStderrTheChatGoesOnAndExitsWithOne() {
        replies.add("{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens\",\"code\":\"context_length_exceeded\"}}");
        CliTest.Run r = run("hello\n/exit\n", "chat", "--model", "openai:test-model", "--base-url", url(),
                "--db", dir.resolve("e.db").toString(), "--session", "s1");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("error: ").contains("maximum context length is 8192 tokens").contains("context window")
                .contains("a model call failed");
        assertThat(r.out()).contains("Bye.").doesNotContain("error:");
    }

    @Test
    void anUnknownModelSpecIsAUsageError() {
        CliTest.Run r = run("", "chat", "--model", "gemini:pro", "--db", dir.resolve("u.db").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("'gemini:pro' is not a model this build offers");
    }
}
