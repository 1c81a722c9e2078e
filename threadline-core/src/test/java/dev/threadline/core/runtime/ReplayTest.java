package dev.threadline.core.runtime;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.Effect;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.state.Edit;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Replaying a recorded session on another model: a 20-turn session with a side-effect skill and a
 * read-only one, replayed on the model it ran on and on a second one that answers some turns
 * differently. Recorded calls get their recorded results, the side effect runs once in all, and the
 * report says per turn what changed.
 */
class ReplayTest {
    private final AtomicInteger payments = new AtomicInteger();
    private final AtomicInteger lookups = new AtomicInteger();
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore())
            .models(ModelResolver.of(List.of(named("a", script("A", false)), named("b", script("B", true)))))
            .skill(skill("pay", Effect.SIDE_EFFECT, payments)).skill(skill("lookup", Effect.READ_ONLY, lookups)).build();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void a_twenty_turn_session_replays_on_a_second_model_with_recorded_results_and_the_side_effect_ran_once() {
        Session s = record();
        assertThat(payments).hasValue(2);
        assertThat(lookups).hasValue(4);
        List<StoredEvent> original = s.history().journal();

        ReplayReport same = s.replay(ReplayRequest.onModel("a"));
        assertThat(same.turns()).hasSize(20);
        assertThat(same.changedReplies()).isZero();
        assertThat(same.stopped()).isNull();
        assertThat(same.turns()).allSatisfy(t -> {
            assertThat(t.replayed().outcome()).isEqualTo(t.original().outcome()).isEqualTo("completed");
            assertThat(t.replayed().calls()).extracting(ReplayReport.Call::how).allMatch("recorded"::equals);
            assertThat(t.replayed().calls()).extracting(ReplayReport.Call::name)
                    .isEqualTo(t.original().calls().stream().map(ReplayReport.Call::name).toList());
        });

        ReplayReport other = s.replay(ReplayRequest.onModel("b"));
        assertThat(other.branchId()).isNotEqualTo(same.branchId()).startsWith("s1.replay");
        assertThat(other.turns()).hasSize(20);
        ReplayReport.Turn pay = other.turns().stream().filter(t -> t.text().equals("pay 7")).findFirst().orElseThrow();
        assertThat(pay.original().calls()).singleElement().satisfies(c -> assertThat(c.how()).isEqualTo("ran"));
        assertThat(pay.replayed().calls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("pay");
            assertThat(c.arguments().get("amount").asInt()).isEqualTo(8); // model b pays one more: no record, never run
            assertThat(c.how()).isEqualTo("not run");
        });
        assertThat(pay.original().reply()).isEqualTo("A done: paid 7");
        assertThat(pay.replayed().reply()).startsWith("B done: error: not run in a replay");
        ReplayReport.Turn look = other.turns().stream().filter(t -> t.text().equals("lookup x4")).findFirst().orElseThrow();
        assertThat(look.replayed().calls()).extracting(ReplayReport.Call::how).containsExactly("recorded");
        assertThat(look.replayed().reply()).isEqualTo("B done: found x4");
        assertThat(other.changedReplies()).isEqualTo(20); // every reply says which model wrote it
        assertThat(other.turns().get(0).replayed().usage().outputTokens()).isEqualTo(2);

        assertThat(payments).as("the side effect ran once, in the original only").hasValue(2);
        assertThat(lookups).as("read-only calls ran in the original only: live tools are off").hasValue(4);
        assertThat(s.history().journal()).as("the original is only read").isEqualTo(original);
        Session branch = tl.defaultTenant().open(other.branchId());
        assertThat(branch.config().model()).isEqualTo("b");
        assertThat(branch.history().journal()).extracting(StoredEvent::event).filteredOn(Event.StateEdited.class::isInstance)
                .singleElement().satisfies(e -> assertThat(((Event.StateEdited) e).edits()).containsExactly(new Edit.SetModel("b", null)));
        assertThat(branch.history().sideEffectsAfter(0)).as("replayed calls are recorded reads, not side effects").isEmpty();
    }

    @Test
    void live_tools_run_read_only_calls_with_no_record_but_never_a_side_effect() {
        Session s = record();
        ReplayReport r = s.replay(ReplayRequest.onModel("b").liveTools(true));
        ReplayReport.Turn look = r.turns().stream().filter(t -> t.text().equals("lookup x9")).findFirst().orElseThrow();
        assertThat(look.replayed().calls()).extracting(ReplayReport.Call::how).containsExactly("live"); // b looks up x10
        assertThat(lookups).hasValue(5);
        assertThat(payments).hasValue(2);
    }

    @Test
    void a_range_replays_only_its_turns_and_bad_requests_write_nothing() {
        Session s = record();
        long third = s.history().journal().stream().filter(e -> e.event() instanceof Event.UserMessageReceived).skip(2).findFirst()
                .orElseThrow().seq();
        ReplayReport r = s.replay(ReplayRequest.onModel("a").range(third, third));
        assertThat(r.turns()).singleElement().satisfies(t -> assertThat(t.seq()).isEqualTo(third));
        int sessions = tl.defaultTenant().sessions().items().size();

        assertThatThrownBy(() -> s.replay(ReplayRequest.onModel("nope"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> s.replay(ReplayRequest.onModel("a").range(100_000, 0))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no user turn");
        assertThatThrownBy(() -> ReplayRequest.onModel("a").range(9, 3)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("fromSeq");
        assertThatThrownBy(() -> ReplayRequest.onModel(" ")).isInstanceOf(InvalidInputException.class);
        assertThat(tl.defaultTenant().sessions().items()).hasSize(sessions);
    }

    /** Twenty turns on model a: chat, lookups (read-only) and two payments (side effects). */
    private Session record() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withModel("a"));
        for (int i = 1; i <= 20; i++) {
            String text = switch (i) {
                case 4, 9, 14, 19 -> "lookup x" + i;
                case 7 -> "pay 7";
                case 16 -> "pay 16";
                default -> "hello " + i;
            };
            assertThat(s.submit(text).outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        }
        return s;
    }

    /**
     * The models' script: a tool result is answered "P done: …"; "pay N" pays N (model b pays N+1 on "pay 7");
     * "lookup xN" looks xN up (model b looks up x(N+1) on "lookup x9"); anything else "P ack …".
     */
    private static Function<ChatRequest, ChatResponse> script(String prefix, boolean drifts) {
        return req -> {
            Message last = req.messages().get(req.messages().size() - 1);
            int n = req.messages().size();
            if (!last.toolResults().isEmpty()) {
                return text(prefix + " done: " + last.toolResults().stream().map(ContentBlock.ToolResult::content)
                        .collect(Collectors.joining(" + ")));
            }
            String t = last.text();
            if (t.startsWith("pay ")) {
                int amount = Integer.parseInt(t.substring(4)) + (drifts && t.equals("pay 7") ? 1 : 0);
                return toolCall("p" + n, "pay", "{\"amount\":" + amount + "}");
            }
            if (t.startsWith("lookup x")) {
                int k = Integer.parseInt(t.substring(8)) + (drifts && t.equals("lookup x9") ? 1 : 0);
                return toolCall("l" + n, "lookup", "{\"key\":\"x" + k + "\"}");
            }
            return text(prefix + " ack " + t);
        };
    }

    /** {@code script} as a model named {@code name}, each reply costing 10 input and 2 output tokens. */
    private static ChatModel named(String name, Function<ChatRequest, ChatResponse> script) {
        return new ChatModel() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public ChatResponse complete(ChatRequest request) {
                ChatResponse r = script.apply(request);
                return new ChatResponse(r.content(), r.stopReason(), dev.threadline.core.model.Usage.of(10, 2));
            }
        };
    }

    /** A skill of {@code effect} that counts its runs; pay answers "paid N", lookup "found K". */
    private static TestSkills.Simple skill(String name, Effect effect, AtomicInteger runs) {
        String schema = name.equals("pay") ? "{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\"}}}"
                : "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"}}}";
        return new TestSkills.Simple(name, schema) {
            @Override
            public SkillResult execute(ExecutionContext c) {
                runs.incrementAndGet();
                return SkillResult.ok(name.equals("pay") ? "paid " + c.arguments().get("amount").asInt()
                        : "found " + c.arguments().get("key").asText());
            }

            @Override
            public SkillPolicy policy() {
                return SkillPolicy.DEFAULT.withEffect(effect);
            }
        };
    }
}
