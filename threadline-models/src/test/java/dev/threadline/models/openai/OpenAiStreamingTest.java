package dev.threadline.models.openai;

import static dev.threadline.models.TestHttp.data;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.models.LocalServer;
import dev.threadline.models.TestHttp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Streaming from a local server that writes chat-completion chunks as server-sent events. */
class OpenAiStreamingTest {
    final LocalServer server = LocalServer.start();
    final OpenAiChatModel model = OpenAiChatModel.builder().model("qwen2.5").baseUrl(server.url() + "/v1")
            .http(TestHttp.settings(new TestHttp.RecordingSleeper())).build();
    final List<String> pieces = new ArrayList<>();
    final ChatRequest request = new ChatRequest("m", "", List.of(Message.user("hi")), OpenAiChatModelTest.TOOLS, 128);

    @AfterEach
    void stop() {
        server.close();
    }

    static String chunk(String delta, String finishReason) {
        return data("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":" + delta
                + ",\"finish_reason\":" + (finishReason == null ? "null" : "\"" + finishReason + "\"") + "}]}");
    }

    static final String DONE = data("[DONE]");

    @Test
    void textGoesToTheListenerAndToolCallFragmentsAreJoinedByIndex() {
        server.sse(chunk("{\"role\":\"assistant\",\"content\":\"\"}", null),
                chunk("{\"content\":\"Let me \"}", null),
                chunk("{\"content\":\"check.\"}", null),
                chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"calculate\",\"arguments\":\"\"}}]}", null),
                chunk("{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"calculate\",\"arguments\":\"{\\\"expr\"}}]}", null),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"expression\\\":\"}}]}", null),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"2+2\\\"}\"}}]}", null),
                chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"ession\\\":\\\"3*3\\\"}\"}}]}", null),
                chunk("{}", "tool_calls"),
                data("{\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":12,\"total_tokens\":62}}"),
                DONE);

        ChatResponse r = model.stream(request, pieces::add);

        assertThat(pieces).containsExactly("Let me ", "check.");
        assertThat(r.content()).containsExactly(ContentBlock.text("Let me check."),
                new ContentBlock.ToolUse("call_a", "calculate", Json.parse("{\"expression\":\"2+2\"}", "x")),
                new ContentBlock.ToolUse("call_b", "calculate", Json.parse("{\"expression\":\"3*3\"}", "x")));
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(r.usage()).isEqualTo(Usage.of(50, 12));
        assertThat(server.request(0).json().get("stream").asBoolean()).isTrue();
        assertThat(server.request(0).json().get("stream_options")).isEqualTo(Json.parse("{\"include_usage\":true}", "x"));
    }

    @Test
    void toolCallArgumentsReachTheListenerPieceByPieceWithTheirCallsIdAndName() {
        server.sse(chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"calculate\",\"arguments\":\"\"}}]}", null),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"expression\\\":\"}}]}", null),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"2+2\\\"}\"}}]}", null),
                chunk("{}", "tool_calls"), DONE);
        dev.threadline.models.RecordingStream seen = new dev.threadline.models.RecordingStream();

        ChatResponse r = model.stream(request, seen);

        assertThat(seen.text).isEmpty();
        assertThat(seen.toolInput).containsExactly("call_a/calculate:{\"expression\":", "call_a/calculate:\"2+2\"}");
        assertThat(r.toMessage().toolUses()).extracting(ContentBlock.ToolUse::input)
                .containsExactly(Json.parse("{\"expression\":\"2+2\"}", "x"));
    }

    @Test
    void aStreamCutByLengthInsideAToolCallsArgumentsReturnsNoToolUse() {
        server.sse(chunk("{\"content\":\"Computing.\"}", null),
                chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"calculate\",\"arguments\":\"{\\\"expression\\\": \\\"(1+\"}}]}", null),
                chunk("{}", "length"), DONE);

        ChatResponse r = model.stream(request, pieces::add);

        assertThat(r.content()).containsExactly(ContentBlock.text("Computing."));
        assertThat(r.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
    }

    @Test
    void anErrorChunkFailsTheCallWithItsKind() {
        server.sse(chunk("{\"content\":\"a\"}", null),
                data("{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens\",\"type\":\"invalid_request_error\","
                        + "\"code\":\"context_length_exceeded\"}}"));
        assertThatThrownBy(() -> model.stream(request, pieces::add)).isInstanceOfSatisfying(ModelException.class,
                e -> assertThat(e.kind()).isEqualTo(ModelException.Kind.CONTEXT_TOO_LONG));
    }

    @Test
    void aStreamThatEndsWithoutDoneOrAFinishReasonIsANetworkError() {
        server.sse(chunk("{\"content\":\"half\"}", null));
        assertThatThrownBy(() -> model.stream(request, pieces::add)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(ModelException.Kind.NETWORK);
            assertThat(e.retryable()).isTrue();
        });
    }

    @Test
    void aServerThatOmitsDoneButSentAFinishReasonIsAccepted() {
        server.sse(chunk("{\"content\":\"done\"}", "stop"));
        assertThat(model.stream(request, pieces::add).text()).isEqualTo("done");
    }
}
