package dev.threadline.core.state;

import dev.threadline.core.internal.state.Reducer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.context.Views;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.model.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ReducerProperties {

    @Provide
    Arbitrary<List<Integer>> choices() {
        return Arbitraries.integers().between(0, 999).list().ofMinSize(0).ofMaxSize(120);
    }

    static List<StoredEvent> journal(List<List<Event>> steps) {
        List<StoredEvent> out = new ArrayList<>();
        long seq = 0;
        long step = 0;
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        for (List<Event> events : steps) {
            step++;
            for (Event e : events) {
                out.add(new StoredEvent("s", ++seq, step, t.plusSeconds(seq), "cmd" + step, CheckpointSource.LOOP, e));
            }
        }
        return out;
    }

    @Property(tries = 300)
    void theReducerIsDeterministic(@ForAll("choices") List<Integer> choices) {
        List<StoredEvent> journal = journal(RandomJournal.steps(choices));
        assertThat(Reducer.fold(journal)).isEqualTo(Reducer.fold(journal));
        assertThat(Reducer.fold(journal(RandomJournal.steps(choices)))).isEqualTo(Reducer.fold(journal));
    }

    @Property(tries = 300)
    void everyEventRoundTripsThroughItsStoredForm(@ForAll("choices") List<Integer> choices) {
        List<StoredEvent> journal = journal(RandomJournal.steps(choices));
        List<StoredEvent> decoded = new ArrayList<>();
        for (StoredEvent e : journal) {
            Event back = RecordCodec.decodeEvent("s", e.seq(), RecordCodec.VERSION, RecordCodec.encodeEvent(e.event()));
            assertThat(back).isEqualTo(e.event());
            StoredEvent line = RecordCodec.importLine(Json.parse(RecordCodec.exportLine(e).toString(), "line"));
            assertThat(line).isEqualTo(e);
            decoded.add(line);
        }
        assertThat(Reducer.fold(decoded)).isEqualTo(Reducer.fold(journal));
    }

    @Property(tries = 300)
    void everyCheckpointHoldsAValidTranscript(@ForAll("choices") List<Integer> choices) {
        State s = State.EMPTY;
        for (StoredEvent e : journal(RandomJournal.steps(choices))) {
            s = Reducer.apply(s, e);
            assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
            if (s.pending().isEmpty() && !s.messages().isEmpty()) {
                // the raw transcript may hold an empty reply; what is sent is the policy's view of it
                List<Message> view = ContextPolicy.full().view(s, Views.LIMITS).messages();
                assertThat(TranscriptValidator.violations(view, TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
            }
        }
    }

    @Property(tries = 300)
    void snapshotPlusTranscriptReplayEqualsAFullFold(@ForAll("choices") List<Integer> choices,
                                                      @ForAll("cut") int cutPercent) {
        List<StoredEvent> journal = journal(RandomJournal.steps(choices));
        if (journal.isEmpty()) {
            return;
        }
        int cut = journal.size() * cutPercent / 100;
        State atCut = Reducer.fold(journal.subList(0, cut));
        State transcriptOnly = State.EMPTY;
        for (StoredEvent e : journal.subList(0, cut)) {
            transcriptOnly = Reducer.applyTranscriptOnly(transcriptOnly, e.event());
        }
        StateSnapshot snap = Json.read(Json.write(atCut.snapshot()), StateSnapshot.class);
        State s = State.fromSnapshot(snap, transcriptOnly.messages());
        for (StoredEvent e : journal.subList(cut, journal.size())) {
            s = Reducer.apply(s, e);
        }
        assertThat(s).isEqualTo(Reducer.fold(journal));
    }

    @Provide
    Arbitrary<Integer> cut() {
        return Arbitraries.integers().between(0, 100);
    }

    @Property(tries = 200)
    void anEventThatCannotFollowIsRefusedAndChangesNothing(@ForAll("choices") List<Integer> choices) {
        State s = Reducer.fold(journal(RandomJournal.steps(choices)));
        State before = s;
        if (!s.pending().isEmpty()) {
            assertThatThrownBy(() -> Reducer.apply(before, new Event.UserMessageReceived(Message.user("x"))))
                    .isInstanceOf(InvalidEventException.class);
        }
        assertThatThrownBy(() -> Reducer.apply(before, new Event.ToolCallCompleted("no-such-call", "x", false)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("no-such-call");
        assertThat(s).isEqualTo(before);
    }
}
