package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.HistoryPrunedException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LegalHoldException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.PruneResult;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Issue 24's pruning acceptance on a backend, scaled to run in seconds: a session of {@code events} events
 * (turns of the scripted demo model) with a fork near its head, pruned to its latest {@code keep}
 * checkpoints. It resumes and takes a turn with the same transcript, a pruned checkpoint is one clear
 * error naming the session, the seq and the policy, the store keeps fewer bytes (as {@code storedBytes}
 * measures them), the fork keeps working; a held session is refused and untouched; bad input is a clear
 * error and changes nothing. Each backend's test runs it on its own store. Stateless.
 */
public final class PruningAcceptance {
    private PruningAcceptance() {}

    /**
     * What the run measured.
     *
     * @param events        the session's events before the prune
     * @param prunedThrough the base seq
     * @param bytesBefore   {@code storedBytes} before the prune
     * @param bytesAfter    {@code storedBytes} after it
     */
    public record Report(long events, long prunedThrough, long bytesBefore, long bytesAfter) {
        /** The report in one line, for a test's output and the docs. */
        @Override
        public String toString() {
            return events + " events pruned through seq " + prunedThrough + ": " + bytesBefore + " -> " + bytesAfter + " ("
                    + (bytesBefore == 0 ? 0 : 100 * (bytesBefore - bytesAfter) / bytesBefore) + " % less)";
        }
    }

    /**
     * Runs the scenario on {@code store} (which it closes) and checks it; {@code storedBytes} measures the store
     * (a file's size after a checkpoint, a database's table sizes), called before and after the prune.
     */
    public static Report run(StateStore store, Clock clock, int events, int keep, LongSupplier storedBytes) {
        try (Threadline tl = Threadline.builder().store(store).clock(clock).model(ScriptedModel.demo()).build()) {
            Tenant t = tl.defaultTenant();
            Session s = t.create("long", SessionConfig.DEFAULT);
            for (int i = 0; s.state().seq() < events; i++) {
                s.submit("turn " + i + ": tell me something about the garden and the weather");
            }
            long head = s.state().seq();
            List<Checkpoint> before = s.history().checkpoints();
            Session fork = s.fork(before.get(before.size() - 3).seq(), "long-fork");
            List<Message> transcript = s.state().messages();
            long bytesBefore = storedBytes.getAsLong();

            assertThatThrownBy(() -> tl.lifecycle().prune("default", "long", PrunePolicy.keepLatest(-1)))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("keep");
            assertThatThrownBy(() -> tl.lifecycle().prune("default", "nope", PrunePolicy.keepLatest(keep)))
                    .isInstanceOf(SessionNotFoundException.class);
            tl.lifecycle().placeHold(DataSubject.session("default", "long"), "case 42", "tck");
            assertThatThrownBy(() -> tl.lifecycle().prune("default", "long", PrunePolicy.keepLatest(keep)))
                    .isInstanceOf(LegalHoldException.class).hasMessageContaining("case 42");
            assertThat(store.readOwn(new SessionKey("default", "long"), 1, head)).as("untouched while held").hasSize((int) head);
            tl.lifecycle().liftHold(DataSubject.session("default", "long"), "tck");

            PruneResult r = tl.lifecycle().prune("default", "long", PrunePolicy.keepLatest(keep));
            long bytesAfter = storedBytes.getAsLong();
            assertThat(r.prunedThrough()).isEqualTo(before.get(before.size() - keep - 1).seq());
            assertThat(r.eventsRemoved()).isEqualTo(r.prunedThrough());
            assertThat(r.limitedBy()).isNull();
            assertThat(bytesAfter).as("stored bytes after the prune").isLessThan(bytesBefore);

            assertThat(s.history().checkpoints()).as("the kept checkpoints").hasSize(keep)
                    .isEqualTo(before.subList(before.size() - keep, before.size()));
            assertThat(s.state().messages()).as("the transcript, loaded from the base").isEqualTo(transcript);
            TranscriptValidator.check(s.state().messages(), TranscriptValidator.Mode.CHECKPOINT);
            long pruned = r.prunedThrough() - 1;
            assertThatThrownBy(() -> s.history().stateAt(pruned)).isInstanceOf(HistoryPrunedException.class)
                    .hasMessageContaining("session 'long' seq " + pruned).hasMessageContaining("keep the latest " + keep + " checkpoints");
            assertThatThrownBy(() -> s.fork(pruned)).isInstanceOf(HistoryPrunedException.class);
            assertThatThrownBy(() -> s.history().events(0, 10)).isInstanceOf(HistoryPrunedException.class)
                    .hasMessageContaining("seq 1 ");
            assertThat(s.history().stateAt(r.prunedThrough()).messages()).as("the base itself").hasSizeLessThan(transcript.size());

            assertThat(s.submit("and after the prune?").reply()).isNotBlank();
            assertThat(s.state().seq()).isGreaterThan(head);
            assertThat(fork.submit("and on the fork?").reply()).isNotBlank();
            assertThat(s.fork(before.getLast().seq(), "late-fork").submit("a new fork of a kept checkpoint").reply()).isNotBlank();
            return new Report(head, r.prunedThrough(), bytesBefore, bytesAfter);
        }
    }
}
