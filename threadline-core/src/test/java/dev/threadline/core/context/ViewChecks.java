package dev.threadline.core.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import java.util.ArrayList;
import java.util.List;

/** The contract every context policy's view must keep, checked against the state it was made from. */
final class ViewChecks {
    private ViewChecks() {}

    static void check(State s, ContextView v, ContextLimits limits) {
        List<Message> view = v.messages();
        if (s.pending().isEmpty()) {
            assertThat(TranscriptValidator.violations(view, TranscriptValidator.Mode.MODEL_VIEW)).as("model view").isEmpty();
        } else {
            assertThat(TranscriptValidator.violations(view, TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
            assertThat(view.getLast()).as("the pending calls' tool_use is kept").isSameAs(s.messages().getLast());
            assertThat(view.getFirst().role()).isEqualTo(Role.USER);
            assertThat(view).allSatisfy(m -> assertThat(ContextBase.sanitize(m)).isSameAs(m));
        }
        int j = start(s);
        for (int i = 0; i < view.size(); i++) {
            Message m = view.get(i);
            if (Views.isSummary(m)) {
                assertThat(i).as("a summary only opens the view").isZero();
                assertThat(m.text()).endsWith(s.compaction().summary());
                continue;
            }
            while (j < s.messages().size() && !m.equals(ContextBase.sanitize(s.messages().get(j)))) {
                j++;
            }
            assertThat(j).as("view message %d comes from the context, in order", i).isLessThan(s.messages().size());
            j++;
        }
        List<Message> turn = currentTurn(s);
        assertThat(view.subList(Math.max(0, view.size() - turn.size()), view.size()))
                .as("the current turn is in the view, whole").isEqualTo(turn);
        long tokens = limits.fixedTokens() + view.stream().mapToLong(limits.counter()::count).sum();
        assertThat(v.tokens()).isEqualTo(tokens);
        if (v.warning() == null) {
            assertThat(v.tokens()).as("within budget when there is no warning").isLessThanOrEqualTo(v.budget());
        }
    }

    /** Where the context's original messages start: the compaction boundary, or the last clear. */
    static int start(State s) {
        return s.compaction() != null && s.compaction().boundary() > s.contextStart() ? s.compaction().boundary() : s.contextStart();
    }

    static int summarised(State s) {
        return start(s) - s.contextStart();
    }

    static int emptyReplies(State s) {
        int n = 0;
        for (int i = start(s); i < s.messages().size(); i++) {
            n += ContextBase.sanitize(s.messages().get(i)) == null ? 1 : 0;
        }
        return n;
    }

    /** The messages of the turn in progress (or the latest turn) that the view must hold, sanitised. */
    static List<Message> currentTurn(State s) {
        int from = Math.max(start(s), Math.max(0, Views.currentTurnStart(s)));
        List<Message> out = new ArrayList<>();
        for (Message m : s.messages().subList(from, s.messages().size())) {
            Message clean = ContextBase.sanitize(m);
            if (clean != null) {
                out.add(clean);
            }
        }
        return out;
    }

}
