package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of what people do (messages that need approvals or answers, approvals with and
 * without edits, denials, answers, typed edits, a second runtime resuming) through the public API:
 * each command either works or is refused writing nothing, every state keeps a valid transcript, a
 * call runs only once approved and at most once, and a reload folds the same state.
 */
class HumanInTheLoopProperties {

    @Provide
    Arbitrary<List<Integer>> commands() {
        return Arbitraries.integers().between(0, 999).list().ofMinSize(1).ofMaxSize(25);
    }

    @Property(tries = 60)
    void everyCommandWorksOrChangesNothingAndTranscriptsStayValid(@ForAll("commands") List<Integer> commands) {
        InMemoryStateStore store = new InMemoryStateStore();
        var runs = HumanSkills.runs();
        try (Threadline a = runtime(store, runs); Threadline b = runtime(store, runs)) {
            a.defaultTenant().create("s1", SessionConfig.DEFAULT.withRequireApproval(List.of("echo")));
            int approvals = 0;
            for (int c : commands) {
                Session s = (c % 2 == 0 ? a : b).defaultTenant().open("s1");
                List<StoredEvent> before = s.history().journal();
                List<PendingApproval> waiting = s.pendingApprovals();
                try {
                    approvals += act(s, c, waiting);
                } catch (ThreadlineException refused) {
                    assertThat(s.history().journal()).as("a refused command writes nothing: %s", refused.getMessage()).isEqualTo(before);
                }
                State st = s.state();
                assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
                if (st.isIdle()) {
                    assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
                }
                assertThat(st.isIdle() || st.isSuspended()).as("between commands no turn runs").isTrue();
                assertThat(runs.size()).as("pay runs only when approved, once").isLessThanOrEqualTo(approvals);
            }
            Session s = a.defaultTenant().open("s1");
            State live = s.state();
            Engines.evict(a, "s1");
            assertThat(s.state()).isEqualTo(live);
        }
    }

    private static Threadline runtime(InMemoryStateStore store, List<com.fasterxml.jackson.databind.JsonNode> runs) {
        return Threadline.builder().store(store).model(HumanSkills.model()).skill(HumanSkills.pay(runs)).skill(TestSkills.echo())
                .skill(Builtins.askUser()).snapshotEvery(3).leaseLinger(java.time.Duration.ZERO).build(); // no linger: the runtimes alternate
    }

    /** One person's action; returns 1 when it approved a pay call. */
    private static int act(Session s, int c, List<PendingApproval> waiting) {
        PendingApproval first = waiting.isEmpty() ? null : waiting.get(c % waiting.size());
        switch (c % 10) {
            case 0, 1 -> s.submit("pay " + (1 + c % 150)); // amounts above 100 fail validation before any approval
            case 2 -> s.submit("ask");
            case 3 -> s.submit("pay and echo");
            case 4 -> {
                String id = first == null ? "nosuch" : first.toolUseId();
                boolean pay = first != null && first.name().equals("pay");
                s.approve(id, c % 3 == 0 ? TestSkills.json(pay ? "{\"amount\":" + (c % 120) + "}" : "{\"text\":\"edited\"}") : null);
                return pay ? 1 : 0;
            }
            case 5 -> s.deny(first == null ? "nosuch" : first.toolUseId(), "no " + c);
            case 6 -> s.answer(first == null ? "nosuch" : first.toolUseId(), "answer " + c);
            case 7 -> s.edit("ops", "random", List.of(Edit.set("v" + c % 3, IntNode.valueOf(c)), Edit.append(c % 4 == 0 ? Message.assistantText("note " + c) : Message.user("said " + c))));
            case 8 -> s.submit("hello " + c);
            default -> s.edit("ops", "", List.of(Edit.remove("v" + c % 3)));
        }
        return 0;
    }
}
