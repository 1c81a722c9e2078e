package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/** Tool calls and tool responses are kept (Spring AI's JDBC repository drops them), paired. */
class ToolCallsTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();
    private final ThreadlineChatMemoryRepository repository = new ThreadlineChatMemoryRepository(tl.tenant("acme"));

    @AfterEach
    void close() {
        tl.close();
    }

    private static AssistantMessage calls(AssistantMessage.ToolCall... calls) {
        return AssistantMessage.builder().content("").toolCalls(List.of(calls)).build();
    }

    private static AssistantMessage.ToolCall call(String id, String name, String arguments) {
        return new AssistantMessage.ToolCall(id, "function", name, arguments);
    }

    private static ToolResponseMessage responses(ToolResponseMessage.ToolResponse... responses) {
        return ToolResponseMessage.builder().responses(List.of(responses)).build();
    }

    @Test
    void tool_calls_and_responses_round_trip_and_form_a_valid_transcript() {
        var weather = call("call_1", "weather", "{\"city\":\"Oslo\"}");
        var clock = call("call_2", "clock", "{}");
        List<Message> messages = List.of(new UserMessage("weather and time?"), calls(weather, clock),
                responses(new ToolResponseMessage.ToolResponse("call_1", "weather", "rain"),
                        new ToolResponseMessage.ToolResponse("call_2", "clock", "9:00")),
                new AssistantMessage("rain, at 9:00"));

        repository.saveAll("c1", messages);

        assertThat(repository.findByConversationId("c1")).isEqualTo(messages);
        var transcript = tl.tenant("acme").open("c1").state().messages();
        assertThat(transcript).extracting(m -> m.role()).containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);
        assertThat(TranscriptValidator.violations(transcript, TranscriptValidator.Mode.CHECKPOINT)).isEmpty(); // paired (the empty text Spring AI gives a tool-calling reply is kept as is)
    }

    @Test
    void calls_saved_before_their_response_wait_for_it_with_the_session_idle() {
        var c = call("call_1", "slow", "{}");
        List<Message> list = new ArrayList<>(List.of(new UserMessage("go"), calls(c)));
        repository.saveAll("c1", list);
        assertThat(repository.findByConversationId("c1")).isEqualTo(list);
        assertThat(tl.tenant("acme").open("c1").state().isIdle()).isTrue();

        list.add(responses(new ToolResponseMessage.ToolResponse("call_1", "slow", "done")));
        repository.saveAll("c1", list);

        assertThat(repository.findByConversationId("c1")).isEqualTo(list);
        assertThat(tl.tenant("acme").open("c1").state().contextStart()).isZero();
    }

    @Test
    void responses_in_another_order_than_the_calls_are_kept_in_call_order() {
        var a = call("1", "a", "{}");
        var b = call("2", "b", "{}");
        repository.saveAll("c1", List.of(new UserMessage("go"), calls(a, b),
                responses(new ToolResponseMessage.ToolResponse("2", "b", "B"), new ToolResponseMessage.ToolResponse("1", "a", "A"))));

        var back = (ToolResponseMessage) repository.findByConversationId("c1").get(2);
        assertThat(back.getResponses()).extracting(ToolResponseMessage.ToolResponse::id).containsExactly("1", "2");
    }

    @Test
    void a_response_without_its_calls_is_refused_and_nothing_is_written() {
        repository.saveAll("c1", List.of(new UserMessage("hi")));
        assertThatThrownBy(() -> repository.saveAll("c1", List.of(new UserMessage("hi"),
                responses(new ToolResponseMessage.ToolResponse("1", "a", "A")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not follow");
        assertThatThrownBy(() -> repository.saveAll("c1", List.of(new UserMessage("hi"), calls(call("1", "a", "{}")),
                responses(new ToolResponseMessage.ToolResponse("9", "a", "A")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did not make");
        assertThat(repository.findByConversationId("c1")).containsExactly(new UserMessage("hi"));
    }

    @Test
    void a_window_that_evicted_the_calls_may_start_with_their_response() {
        var memory = new Differential(repository, 3);
        var c = call("1", "calc", "{\"n\":2}");
        var response = responses(new ToolResponseMessage.ToolResponse("1", "calc", "4"));
        memory.add("c1", new UserMessage("2*2?"), calls(c));
        memory.add("c1", response);
        // 1.1 keeps the newest three (the calls, their response, the answer); 2.0 evicts whole turns (all four)
        assertThat(memory.add("c1", new AssistantMessage("4"))).hasSizeLessThanOrEqualTo(3).doesNotContain(new UserMessage("2*2?"));
        // 1.1: the window starts with the response whose calls it evicted; 2.0: with the new turn
        assertThat(memory.add("c1", new UserMessage("thanks"))).hasSizeLessThanOrEqualTo(3).endsWith(new UserMessage("thanks"));
        // the journal keeps what the window evicted, each message once (2.0 never hands the repository the answer "4")
        var journal = tl.tenant("acme").open("c1").state().messages();
        assertThat(journal).extracting(m -> m.text()).startsWith("2*2?").endsWith("thanks").containsOnlyOnce("2*2?", "thanks");
    }

    @Test
    void a_list_that_starts_with_a_response_whose_calls_it_dropped_is_kept_as_given() {
        var c = call("1", "calc", "{\"n\":2}");
        var response = responses(new ToolResponseMessage.ToolResponse("1", "calc", "4"));
        var memory = new Differential(repository, 10);
        memory.saveAll("c1", List.of(new UserMessage("2*2?"), calls(c), response, new AssistantMessage("4")));
        assertThat(memory.saveAll("c1", List.of(response, new AssistantMessage("4"), new UserMessage("thanks"))))
                .containsExactly(response, new AssistantMessage("4"), new UserMessage("thanks"));
        var state = tl.tenant("acme").open("c1").state();
        assertThat(state.messages()).hasSize(5); // a slide: only "thanks" appended
        assertThat(state.contextStart()).isZero();
    }

    @Test
    void ids_a_model_repeats_are_kept_apart_and_read_back_as_given() {
        var first = call("0", "clock", "{}");
        var again = call("0", "clock", "{}");
        List<Message> messages = List.of(new UserMessage("time?"), calls(first), responses(new ToolResponseMessage.ToolResponse("0", "clock", "9:00")),
                calls(again), responses(new ToolResponseMessage.ToolResponse("0", "clock", "9:01")), new AssistantMessage("9:01"));

        repository.saveAll("c1", messages);

        assertThat(repository.findByConversationId("c1")).isEqualTo(messages);
        var ids = tl.tenant("acme").open("c1").state().messages().stream().flatMap(m -> m.toolUses().stream()).map(u -> u.id()).toList();
        assertThat(ids).doesNotHaveDuplicates().hasSize(2);
    }

    @Test
    void calls_the_conversation_moved_on_from_are_closed_in_the_journal_but_not_read_back() {
        var c = call("1", "a", "{}");
        repository.saveAll("c1", List.of(new UserMessage("go"), calls(c), new UserMessage("never mind")));

        assertThat(repository.findByConversationId("c1")).containsExactly(new UserMessage("go"), calls(c), new UserMessage("never mind"));
        var transcript = tl.tenant("acme").open("c1").state().messages();
        assertThat(transcript.get(2).toolResults()).singleElement().satisfies(r -> assertThat(r.isError()).isTrue());
    }
}
