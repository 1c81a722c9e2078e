package dev.threadline.core.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextPolicyTest {
    private static State apply(State s, Event... events) {
        for (Event e : events) {
            s = Reducer.apply(s, e);
        }
        return s;
    }

    /** A turn: user, assistant calling a tool, the result, the final answer. */
    private static State turn(State s, int n) {
        return apply(s, new Event.UserMessageReceived(Message.user("question " + n)),
                new Event.AssistantMessageReceived(Message.assistant(List.of(new ContentBlock.ToolUse("t" + n, "calc",
                        Json.parse("{\"n\":" + n + "}", "in"))), StopReason.TOOL_USE, Usage.of(10, 2))),
                new Event.ToolCallCompleted("t" + n, "result " + n, false),
                new Event.AssistantMessageReceived(Message.assistantText("answer " + n)),
                new Event.TurnCompleted("end_turn"));
    }

    private static State turns(int n) {
        State s = State.EMPTY;
        for (int i = 1; i <= n; i++) {
            s = turn(s, i);
        }
        return s;
    }

    @Test
    void theTextFormReadsBackAndBadFormsAreNamed() {
        for (ContextPolicy p : List.of(ContextPolicy.full(), ContextPolicy.window(40, 0), ContextPolicy.window(0, 8000),
                ContextPolicy.autoCompact(), new ContextPolicy.AutoCompact(0.8, 0.3))) {
            assertThat(ContextPolicy.parse(p.toString())).isEqualTo(p);
        }
        assertThat(ContextPolicy.parse("window:12")).isEqualTo(ContextPolicy.window(12, 0));
        assertThat(ContextPolicy.parse("auto-compact:0.8")).isEqualTo(new ContextPolicy.AutoCompact(0.8, 0.25));
        assertThat(ContextPolicy.parse(" Auto-Compact ")).isEqualTo(ContextPolicy.autoCompact());
        assertThatThrownBy(() -> ContextPolicy.parse("lru")).isInstanceOf(InvalidInputException.class).hasMessageContaining("'lru' names no policy");
        assertThatThrownBy(() -> ContextPolicy.parse("window:x")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> ContextPolicy.parse("window:threshold=3")).hasMessageContaining("cannot read 'threshold=3'");
        assertThatThrownBy(() -> ContextPolicy.parse("window:0")).hasMessageContaining("give a message limit, a token limit or both");
        assertThatThrownBy(() -> ContextPolicy.parse("auto-compact:1.5")).hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> ContextPolicy.parse("full:3")).hasMessageContaining("takes no parameters");
    }

    @Test
    void aWindowDropsWholeTurnsNeverAToolResultFromItsCall() {
        State s = turns(5);
        ContextView v = ContextPolicy.window(6, 0).view(s, Views.LIMITS);
        assertThat(v.messages()).hasSize(4).first().extracting(Message::text).isEqualTo("question 5");
        assertThat(v.omitted()).isEqualTo(16);
        assertThat(v.warning()).isNull();
        ContextView three = ContextPolicy.window(3, 0).view(s, Views.LIMITS);
        assertThat(three.messages()).hasSize(4);
        assertThat(three.warning()).contains("the current turn alone has 4 messages").contains("sent whole");
        assertThat(TranscriptValidator.violations(three.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void aWindowKeepsTheSummaryOnlyWhileEveryTurnAfterItFits() {
        State s = apply(turns(4), new Event.ContextCompacted("turns 1 and 2", 8));
        assertThat(ContextPolicy.window(9, 0).view(s, Views.LIMITS).messages()).hasSize(9)
                .first().satisfies(m -> assertThat(Views.isSummary(m)).isTrue());
        assertThat(ContextPolicy.window(8, 0).view(s, Views.LIMITS).messages()).hasSize(8)
                .first().extracting(Message::text).isEqualTo("question 3");
        assertThat(ContextPolicy.window(7, 0).view(s, Views.LIMITS).messages()).hasSize(4)
                .first().extracting(Message::text).isEqualTo("question 4");
        assertThat(ContextPolicy.full().view(s, Views.LIMITS).messages()).hasSize(9);
    }

    @Test
    void aTurnInProgressWithAPendingCallIsAlwaysKept() {
        State s = apply(turns(3), new Event.UserMessageReceived(Message.user("go")),
                new Event.AssistantMessageReceived(Message.assistant(List.of(new ContentBlock.ToolUse("p1", "calc",
                        Json.object())), StopReason.TOOL_USE, Usage.ZERO)));
        for (ContextPolicy p : List.of(ContextPolicy.full(), ContextPolicy.window(1, 0), ContextPolicy.autoCompact())) {
            List<Message> v = p.view(s, Views.small(250, 16)).messages();
            assertThat(v.getLast()).isSameAs(s.messages().getLast());
            assertThat(v.get(v.size() - 2).text()).isEqualTo("go");
        }
    }

    @Test
    void emptyRepliesAndBlankTextNeverReachTheModel() {
        State s = apply(State.EMPTY, new Event.UserMessageReceived(Message.user("hi")),
                new Event.AssistantMessageReceived(Message.assistant(List.of(), StopReason.END_TURN, Usage.ZERO)),
                new Event.TurnCompleted("end_turn"), new Event.UserMessageReceived(Message.user("again")),
                new Event.AssistantMessageReceived(Message.assistant(List.of(ContentBlock.text("  "),
                        new ContentBlock.ToolUse("t", "calc", Json.object())), StopReason.TOOL_USE, Usage.ZERO)),
                new Event.ToolCallCompleted("t", "1", false));
        assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.MODEL_VIEW))
                .containsExactly("message 1 (assistant) has no content", "message 3 (assistant) holds a blank text block");
        ContextView v = ContextPolicy.full().view(s, Views.LIMITS);
        assertThat(v.messages()).hasSize(4);
        assertThat(v.messages().get(2).content()).singleElement().isInstanceOf(ContentBlock.ToolUse.class);
        assertThat(TranscriptValidator.violations(v.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void autoCompactionSummarisesOlderTurnsAndKeepsTheLatestVerbatim() {
        State s = apply(turns(40), new Event.UserMessageReceived(Message.user("now")));
        ContextLimits limits = Views.small(1_500, 64);
        ContextPolicy.AutoCompact policy = ContextPolicy.AutoCompact.DEFAULT;
        ContextView before = policy.view(s, limits);
        assertThat(before.tokens()).isGreaterThan(policy.triggerTokens(limits));
        assertThat(before.warning()).contains("older turns are summarised before the next model call");
        CompactionPlan plan = CompactionPlan.due(s, limits, policy, -1).orElseThrow();
        assertThat(plan.previousSummary()).isNull();
        assertThat(s.messages().get(plan.boundary()).text()).startsWith("question");
        State after = Reducer.apply(s, new Event.ContextCompacted("S", plan.boundary(), Usage.of(50, 5)));
        ContextView v = policy.view(after, limits);
        assertThat(v.tokens()).isLessThan(policy.triggerTokens(limits));
        assertThat(v.tokens() - limits.fixedTokens() - limits.counter().count(v.messages().get(0)))
                .isLessThanOrEqualTo((long) (0.25 * 1_500));
        assertThat(v.messages().getLast().text()).isEqualTo("now");
        assertThat(after.usage()).isEqualTo(s.usage().plus(Usage.of(50, 5)));
        assertThat(CompactionPlan.due(after, limits, policy, -1)).isEmpty();
    }

    @Test
    void theReducerRefusesAClearDuringATurnAndACompactionThatWouldOrphanResults() {
        State running = apply(turns(1), new Event.UserMessageReceived(Message.user("go")));
        assertThatThrownBy(() -> Reducer.apply(running, new Event.Cleared())).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("a turn is running");
        State pending = Reducer.apply(running, new Event.AssistantMessageReceived(Message.assistant(
                List.of(new ContentBlock.ToolUse("p", "calc", Json.object())), StopReason.TOOL_USE, Usage.ZERO)));
        assertThatThrownBy(() -> Reducer.apply(pending, new Event.ContextCompacted("s", pending.messages().size())))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("[p]");
    }
}
