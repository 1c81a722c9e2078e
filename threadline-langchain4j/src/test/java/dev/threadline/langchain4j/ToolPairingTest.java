package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.threadline.core.Threadline;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.TranscriptValidator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tool requests and results stay paired, in the memory and in the session's transcript. */
class ToolPairingTest {
    private final Threadline tl = Fixtures.runtime();
    private final ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tl.tenant("acme")).id("m1").build();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void a_request_and_its_results_become_one_valid_step_of_the_transcript() {
        ToolExecutionRequest c1 = call("call_1", "weather", "{\"city\":\"Oslo\"}");
        memory.add(UserMessage.from("weather?"));
        memory.add(AiMessage.from(c1));
        assertThat(memory.session().state().messages()).hasSize(1); // the request waits for its result
        assertThat(memory.session().state().isIdle()).isTrue();

        memory.add(result(c1, "rain"));
        memory.add(AiMessage.from("it rains"));

        var transcript = memory.session().state().messages();
        assertThat(transcript).extracting(m -> m.role()).containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);
        assertThat(TranscriptValidator.violations(transcript, TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
        assertThat(memory.messages()).containsExactly(UserMessage.from("weather?"), AiMessage.from(c1), result(c1, "rain"),
                AiMessage.from("it rains"));
    }

    @Test
    void a_message_after_unanswered_requests_closes_them_with_an_error_result() {
        ToolExecutionRequest c1 = call("1", "a", "{}");
        ToolExecutionRequest c2 = call("2", "b", "{}");
        memory.add(UserMessage.from("go"));
        memory.add(AiMessage.from(c1, c2));
        memory.add(result(c2, "B"));

        memory.add(UserMessage.from("never mind"));

        List<ChatMessage> view = memory.messages();
        assertThat(view).hasSize(5);
        ToolExecutionResultMessage closed = (ToolExecutionResultMessage) view.get(2);
        assertThat(closed.id()).isEqualTo("1");
        assertThat(closed.isError()).isTrue();
        assertThat(closed.text()).contains("no result was recorded");
        assertThat(view.get(3)).isEqualTo(result(c2, "B"));
        assertThat(view.get(4)).isEqualTo(UserMessage.from("never mind"));
        assertThat(TranscriptValidator.violations(memory.session().state().messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void a_result_that_answers_no_open_request_is_refused() {
        ToolExecutionRequest c1 = call("1", "a", "{}");
        memory.add(UserMessage.from("go"));
        assertThatThrownBy(() -> memory.add(result(c1, "A"))).isInstanceOf(IllegalArgumentException.class);

        memory.add(AiMessage.from(c1));
        memory.add(result(c1, "A"));
        assertThatThrownBy(() -> memory.add(result(c1, "again"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.add(result(call("x", "a", "{}"), "A"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(memory.messages()).hasSize(3);
    }

    @Test
    void ids_a_model_repeats_or_leaves_out_are_kept_apart_and_read_back_as_given() {
        ToolExecutionRequest first = call("0", "clock", "{}");
        ToolExecutionRequest again = call("0", "clock", "{}");
        ToolExecutionRequest none = call(null, "clock", "{}");
        memory.add(UserMessage.from("time?"));
        memory.add(AiMessage.from(first));
        memory.add(result(first, "9:00"));
        memory.add(AiMessage.from(again));
        memory.add(result(again, "9:01"));
        memory.add(AiMessage.from(none));
        memory.add(ToolExecutionResultMessage.builder().toolName("clock").text("9:02").isError(false).build());

        List<ChatMessage> view = memory.messages();
        assertThat(view.get(3)).isEqualTo(AiMessage.from(again));
        assertThat(view.get(4)).isEqualTo(result(again, "9:01"));
        assertThat(view.get(5)).isEqualTo(AiMessage.from(none));
        assertThat(((ToolExecutionResultMessage) view.get(6)).id()).isNull();
        var ids = memory.session().state().messages().stream().flatMap(m -> m.toolUses().stream()).map(u -> u.id()).toList();
        assertThat(ids).doesNotHaveDuplicates().hasSize(3);
    }

    @Test
    void arguments_that_are_not_a_json_object_are_kept_verbatim() {
        ToolExecutionRequest odd = call("1", "echo", "not json {");
        ToolExecutionRequest spaced = call("2", "echo", "{ \"a\": 1 }");
        memory.add(UserMessage.from("go"));
        memory.add(AiMessage.from(odd, spaced));

        AiMessage back = (AiMessage) memory.messages().get(1);
        assertThat(back.toolExecutionRequests().get(0).arguments()).isEqualTo("not json {");
        assertThat(back.toolExecutionRequests().get(1).arguments()).isEqualTo("{\"a\":1}"); // JSON objects are written compactly
    }

    @Test
    void a_pending_request_survives_another_runtime_reading_the_memory() {
        ToolExecutionRequest c1 = call("1", "slow", "{}");
        memory.add(UserMessage.from("go"));
        memory.add(AiMessage.from(c1));

        ThreadlineChatMemoryStore store = new ThreadlineChatMemoryStore(tl.tenant("acme"));
        assertThat(store.getMessages("m1")).containsExactly(UserMessage.from("go"), AiMessage.from(c1));
        memory.add(result(c1, "done"));
        assertThat(store.getMessages("m1")).containsExactly(UserMessage.from("go"), AiMessage.from(c1), result(c1, "done"));
    }
}
