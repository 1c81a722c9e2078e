package dev.threadline.core.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.RandomJournal;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * Every policy's view of random journals (parallel tool calls answered in any order, errors,
 * timeouts, interrupts, empty and cut-off replies, clears, earlier compactions, a turn in progress)
 * passes the transcript validator, keeps the current turn whole, and keeps to its budget unless the
 * current turn alone is over it, and then says so. 10,000 journals per policy.
 */
class ContextPolicyProperties {

    @Provide
    Arbitrary<List<Integer>> choices() {
        return Arbitraries.integers().between(0, 999).list().ofMinSize(1).ofMaxSize(120);
    }

    @Provide
    Arbitrary<ContextLimits> limits() {
        return Arbitraries.of(250, 400, 1_000, 3_000, 200_000)
                .flatMap(w -> Arbitraries.of(16, 64).map(out -> Views.small(w, out)));
    }

    @Provide
    Arbitrary<ContextPolicy.Window> windows() {
        Arbitrary<Integer> messages = Arbitraries.integers().between(0, 12);
        Arbitrary<Long> tokens = Arbitraries.of(0L, 40L, 150L, 600L, 2_500L);
        return messages.flatMap(m -> tokens.filter(t -> m > 0 || t > 0).map(t -> new ContextPolicy.Window(m, t)));
    }

    @Property(tries = 10_000)
    void fullKeepsEverythingValid(@ForAll("choices") List<Integer> choices, @ForAll("limits") ContextLimits limits) {
        State s = fold(choices);
        ContextView v = ContextPolicy.full().view(s, limits);
        ViewChecks.check(s, v, limits);
        assertThat(v.omitted()).isEqualTo(ViewChecks.summarised(s) + ViewChecks.emptyReplies(s));
        assertThat(v.warning() != null).as("a warning exactly when over budget").isEqualTo(v.tokens() > v.budget());
    }

    @Property(tries = 10_000)
    @StatisticsReport(onFailureOnly = true) // quiet when it passes: the coverage check below says the cases were reached
    void windowKeepsTheLatestWholeTurns(@ForAll("choices") List<Integer> choices, @ForAll("limits") ContextLimits limits,
                                        @ForAll("windows") ContextPolicy.Window policy) {
        State s = fold(choices);
        ContextView v = policy.view(s, limits);
        ViewChecks.check(s, v, limits);
        Statistics.label("window").collect(v.warning() != null ? "turn over budget" : v.omitted() > 0 ? "cut" : "all fits");
        Statistics.label("window").coverage(c -> {
            for (String kind : List.of("turn over budget", "cut", "all fits")) {
                c.check(kind).percentage(p -> p >= 5);
            }
        });
        if (v.warning() == null && policy.maxMessages() > 0) {
            assertThat(v.messages().size()).isLessThanOrEqualTo(policy.maxMessages());
        }
        if (v.warning() != null) {
            assertThat(v.tokens() > v.budget() || v.messages().size() > policy.maxMessages()).as("a warning only when over").isTrue();
            assertThat(v.messages().stream().filter(m -> m.role() == Role.USER).count())
                    .as("over budget only when the latest turn alone is: the view is that turn").isLessThanOrEqualTo(1);
        }
    }

    @Property(tries = 10_000)
    @StatisticsReport(onFailureOnly = true) // quiet when it passes: the coverage checks below say the cases were reached
    void autoCompactViewsAndPlansAreValid(@ForAll("choices") List<Integer> choices, @ForAll("limits") ContextLimits limits) {
        State s = fold(choices);
        ContextPolicy.AutoCompact policy = ContextPolicy.AutoCompact.DEFAULT;
        ContextView v = policy.view(s, limits);
        ViewChecks.check(s, v, limits);
        assertThat(v.warning() != null).as("a warning exactly when over the threshold").isEqualTo(v.tokens() > v.budget());
        Optional<CompactionPlan> plan = CompactionPlan.due(s, limits, policy, -1);
        Statistics.label("auto-compact").collect(plan.isPresent() ? "compaction due" : v.warning() != null
                ? "over, nothing older to summarise" : "under the threshold");
        Statistics.label("state").collect(!s.pending().isEmpty() ? "calls pending" : s.isIdle() ? "idle" : "turn running");
        Statistics.label("earlier compaction").collect(s.compaction() != null);
        Statistics.label("auto-compact").coverage(c -> {
            c.check("compaction due").percentage(p -> p >= 5);
            c.check("under the threshold").percentage(p -> p >= 5);
            c.check("over, nothing older to summarise").count(n -> n >= 5); // rare (about 0.4 %), but reached
        });
        Statistics.label("state").coverage(c -> {
            for (String state : List.of("calls pending", "idle", "turn running")) {
                c.check(state).percentage(p -> p >= 5);
            }
        });
        Statistics.label("earlier compaction").coverage(c -> {
            c.check(true).percentage(p -> p >= 5);
            c.check(false).percentage(p -> p >= 5);
        });
        int start = ViewChecks.start(s);
        int turn = Views.currentTurnStart(s);
        boolean olderTurnExists = turn > start;
        assertThat(plan.isPresent()).as("a compaction is due exactly when over the threshold with an older turn to summarise")
                .isEqualTo(v.tokens() > policy.triggerTokens(limits) && olderTurnExists);
        if (plan.isPresent()) {
            checkPlan(s, plan.get(), limits, policy, start, turn);
        }
        Optional<CompactionPlan> manual = CompactionPlan.all(s, limits);
        if (manual.isPresent()) {
            checkPlan(s, manual.get(), limits, policy, start, s.isIdle() ? s.messages().size() : turn);
        }
    }

    private static void checkPlan(State s, CompactionPlan plan, ContextLimits limits, ContextPolicy policy, int start, int latest) {
        int b = plan.boundary();
        assertThat(b).isGreaterThan(start).isLessThanOrEqualTo(latest);
        assertThat(b == s.messages().size() || s.messages().get(b).role() == Role.USER).isTrue();
        assertThat(plan.messages()).isEqualTo(s.messages().subList(start, b)).isNotEmpty();
        State after = Reducer.apply(s, new Event.ContextCompacted("S", b));
        ContextView v = policy.view(after, limits);
        ViewChecks.check(after, v, limits);
        assertThat(Views.isSummary(v.messages().get(0))).isTrue();
        int max = CompactionPlan.summaryMaxTokens(limits);
        ChatRequest r = SummaryPrompt.request("m", plan.previousSummary(), plan.messages(), null, max,
                limits.windowTokens() - max, limits.counter());
        assertThat(r.tools()).isEmpty();
        assertThat(r.messages()).singleElement().extracting(Message::role).isEqualTo(Role.USER);
        assertThat(limits.counter().count(r)).isLessThanOrEqualTo(limits.windowTokens() - max);
        assertThat(SummaryPrompt.isSummaryRequest(r)).isTrue();
    }

    static State fold(List<Integer> choices) {
        return RandomJournal.state(choices);
    }
}
