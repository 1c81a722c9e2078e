package dev.threadline.models.anthropic;

import static dev.threadline.models.TestHttp.event;
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

/** Streaming from a local server that writes the Messages API's server-sent events. */
class AnthropicStreamingTest {
    final LocalServer server = LocalServer.start();
    final TestHttp.RecordingSleeper sleeper = new TestHttp.RecordingSleeper();
    final AnthropicChatModel model = AnthropicChatModel.builder().apiKey("k").model("claude-sonnet-4-5")
            .baseUrl(server.url()).http(TestHttp.settings(sleeper)).build();
    final List<String> pieces = new ArrayList<>();
    final ChatRequest request = new ChatRequest("m", "", List.of(Message.user("what is 2+2")), AnthropicChatModelTest.TOOLS, 512);

    @AfterEach
    void stop() {
        server.close();
    }

    static String start(int inputTokens) {
        return event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":" + inputTokens
                + ",\"output_tokens\":1,\"cache_read_input_tokens\":30,\"cache_creation_input_tokens\":0}}}");
    }

    static String blockStart(int index, String block) {
        return event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index + ",\"content_block\":" + block + "}");
    }

    static String delta(int index, String delta) {
        return event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index + ",\"delta\":" + delta + "}");
    }

    static String blockStop(int index) {
        return event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
    }

    static String messageDelta(String stopReason, int outputTokens) {
        return event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason
                + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + outputTokens + "}}");
    }

    static final String STOP = event("message_stop", "{\"type\":\"message_stop\"}");
    static final String PING = event("ping", "{\"type\":\"ping\"}");

    @Test
    void textThinkingAndAToolUseAreAssembledAndTextReachesTheListenerAsItArrives() {
        server.sse(start(25), PING,
                blockStart(0, "{\"type\":\"thinking\",\"thinking\":\"\"}"),
                delta(0, "{\"type\":\"thinking_delta\",\"thinking\":\"Simple \"}"),
                delta(0, "{\"type\":\"thinking_delta\",\"thinking\":\"sum.\"}"),
                delta(0, "{\"type\":\"signature_delta\",\"signature\":\"sig-abc\"}"),
                blockStop(0),
                blockStart(1, "{\"type\":\"text\",\"text\":\"\"}"),
                delta(1, "{\"type\":\"text_delta\",\"text\":\"Let me \"}"),
                delta(1, "{\"type\":\"text_delta\",\"text\":\"check.\"}"),
                blockStop(1),
                blockStart(2, "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"calculate\",\"input\":{}}"),
                delta(2, "{\"type\":\"input_json_delta\",\"partial_json\":\"\"}"),
                delta(2, "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"expression\\\": \\\"2\"}"),
                delta(2, "{\"type\":\"input_json_delta\",\"partial_json\":\"+2\\\"}\"}"),
                blockStop(2),
                messageDelta("tool_use", 33), STOP);

        ChatResponse r = model.stream(request, pieces::add);

        assertThat(pieces).containsExactly("Let me ", "check.");
        assertThat(r.content()).containsExactly(new ContentBlock.Thinking("Simple sum.", "sig-abc"), ContentBlock.text("Let me check."),
                new ContentBlock.ToolUse("toolu_1", "calculate", Json.parse("{\"expression\":\"2+2\"}", "x")));
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(r.usage()).isEqualTo(new Usage(25, 33, 30, 0));
        assertThat(server.request(0).json().get("stream").asBoolean()).isTrue();
        assertThat(server.request(0).header("accept")).isEqualTo("text/event-stream");
    }

    @Test
    void aToolUsesInputJsonReachesTheListenerPieceByPieceWithItsIdAndName() {
        server.sse(start(10),
                blockStart(0, "{\"type\":\"text\",\"text\":\"\"}"),
                delta(0, "{\"type\":\"text_delta\",\"text\":\"Sure.\"}"),
                blockStop(0),
                blockStart(1, "{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"calculate\",\"input\":{}}"),
                delta(1, "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"expression\\\": \\\"2\"}"),
                delta(1, "{\"type\":\"input_json_delta\",\"partial_json\":\"+2\\\"}\"}"),
                blockStop(1),
                messageDelta("tool_use", 20), STOP);
        dev.threadline.models.RecordingStream seen = new dev.threadline.models.RecordingStream();

        ChatResponse r = model.stream(request, seen);

        assertThat(seen.text).containsExactly("Sure.");
        assertThat(seen.toolInput).containsExactly("toolu_9/calculate:{\"expression\": \"2", "toolu_9/calculate:+2\"}");
        assertThat(r.toMessage().toolUses()).extracting(ContentBlock.ToolUse::input)
                .containsExactly(Json.parse("{\"expression\":\"2+2\"}", "x"));
    }

    @Test
    void aStreamThatHitsMaxTokensInsideAToolUsesInputReturnsNoToolUse() {
        server.sse(start(10),
                blockStart(0, "{\"type\":\"text\",\"text\":\"\"}"),
                delta(0, "{\"type\":\"text_delta\",\"text\":\"I'll compute that.\"}"),
                blockStop(0),
                blockStart(1, "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"calculate\",\"input\":{}}"),
                delta(1, "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"expression\\\": \\\"(2+3\"}"),
                blockStop(1),
                messageDelta("max_tokens", 512), STOP);

        ChatResponse r = model.stream(request, pieces::add);

        assertThat(r.content()).containsExactly(ContentBlock.text("I'll compute that."));
        assertThat(r.toMessage().toolUses()).isEmpty();
        assertThat(r.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        assertThat(pieces).containsExactly("I'll compute that.");
    }

    @Test
    void aToolUseWhoseBlockWasNeverClosedIsDroppedEvenWithoutMaxTokens() {
        server.sse(start(10),
                blockStart(0, "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"calculate\",\"input\":{}}"),
                delta(0, "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"expression\\\": \\\"1\\\"}\"}"),
                messageDelta("tool_use", 5), STOP);
        assertThat(model.stream(request, pieces::add).content()).isEmpty();
    }

    @Test
    void anErrorEventMidStreamIsAnOverloadedModelException() {
        server.sse(start(10), blockStart(0, "{\"type\":\"text\",\"text\":\"\"}"),
                delta(0, "{\"type\":\"text_delta\",\"text\":\"Hel\"}"),
                event("error", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));

        assertThatThrownBy(() -> model.stream(request, pieces::add)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(ModelException.Kind.OVERLOADED);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).contains("overloaded_error").contains("Overloaded");
        });
        assertThat(server.requests()).hasSize(1); // a stream that has started is not retried: its text was handed out
    }

    @Test
    void aStreamCutBeforeMessageStopIsARetryableNetworkErrorAndRecordsNothing() {
        server.sse(start(10), blockStart(0, "{\"type\":\"text\",\"text\":\"\"}"), delta(0, "{\"type\":\"text_delta\",\"text\":\"Hel\"}"));
        assertThatThrownBy(() -> model.stream(request, pieces::add)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(ModelException.Kind.NETWORK);
            assertThat(e.getMessage()).contains("ended before message_stop");
        });
    }

    @Test
    void aStreamThatIsRefusedBeforeItStartsIsRetriedLikeAnyCall() {
        server.json(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
        server.sse(start(3), blockStart(0, "{\"type\":\"text\",\"text\":\"\"}"), delta(0, "{\"type\":\"text_delta\",\"text\":\"4\"}"),
                blockStop(0), messageDelta("end_turn", 2), STOP);
        assertThat(model.stream(request, pieces::add).text()).isEqualTo("4");
        assertThat(server.requests()).hasSize(2);
        assertThat(sleeper.delays()).hasSize(1);
    }
}
