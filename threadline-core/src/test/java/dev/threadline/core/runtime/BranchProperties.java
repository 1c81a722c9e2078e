package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.UndoneEffectsException;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.context.Views;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.RandomJournal;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class BranchProperties {

    @Provide
    Arbitrary<List<Integer>> choices() {
        return Arbitraries.integers().between(0, 999).list().ofMinSize(1).ofMaxSize(80);
    }

    @Property(tries = 150)
    void forkAndRewindAtAnyCheckpointKeepTheTranscriptValid(@ForAll("choices") List<Integer> choices,
                                                            @ForAll("pick") int pick, @ForAll boolean rewind) {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).snapshotEvery(5)
                .model(ScriptedModel.of(req -> TestSkills.text("branch reply"))).build()) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
            for (List<Event> step : RandomJournal.steps(choices)) {
                Engines.update(tl, "s", CheckpointSource.LOOP, st -> step);
            }
            List<Checkpoint> cps = s.history().checkpoints();
            Checkpoint at = cps.get(Math.floorMod(pick, cps.size()));
            State parentBefore = s.state();

            boolean effects = !s.history().sideEffectsAfter(at.seq()).isEmpty();
            if (effects) { // a side_effect call came after the checkpoint: refused without an acknowledgement, nothing written
                long sessions = tl.defaultTenant().sessions().items().size();
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.rewind(at.seq()))
                        .isInstanceOf(dev.threadline.core.error.UndoneEffectsException.class);
                assertThat(tl.defaultTenant().sessions().items()).hasSize((int) sessions);
            }
            CommandOptions ack = CommandOptions.builder().acknowledgeEffects(true).build();
            Session b = rewind ? s.with(ack).rewind(at.seq()) : s.with(ack).fork(at.seq());

            State st = b.state();
            assertThat(st.pending()).isEmpty();
            assertThat(st.isIdle()).isTrue();
            assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
            assertThat(TranscriptValidator.violations(b.context().policy().view(st, Views.LIMITS).messages(),
                    TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
            assertThat(st.messages()).startsWith(s.history().stateAt(at.seq()).messages().subList(0,
                    Math.min(st.messages().size(), s.history().stateAt(at.seq()).messages().size())).toArray(new dev.threadline.core.model.Message[0]));
            b.submit("continue here");
            assertThat(TranscriptValidator.violations(b.state().messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
            assertThat(s.state()).as("the parent branch is untouched").isEqualTo(parentBefore);
        }
    }

    @Provide
    Arbitrary<Integer> pick() {
        return Arbitraries.integers().between(0, 10_000);
    }
}
