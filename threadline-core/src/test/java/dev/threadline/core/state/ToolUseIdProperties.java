package dev.threadline.core.state;

import dev.threadline.core.internal.state.Reducer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Long histories (hundreds of messages) in which the model reuses tool_use ids at any distance, in
 * the same message, or reuses an id that was itself refused before: the reducer refuses exactly the
 * replies that repeat an id of the accepted history, every accepted history is a valid checkpoint,
 * and loading from a snapshot knows the same ids as a full fold.
 */
class ToolUseIdProperties {

    @Provide
    Arbitrary<List<Integer>> longChoices() {
        return Arbitraries.integers().between(0, 9999).list().ofMinSize(300).ofMaxSize(900);
    }

    @Provide
    Arbitrary<Integer> cut() {
        return Arbitraries.integers().between(0, 100);
    }

    /** The accepted steps of a simulated session; refused replies are checked as they are tried. */
    static List<List<Event>> simulate(List<Integer> choices, boolean checkEveryStep) {
        List<List<Event>> steps = new ArrayList<>();
        List<String> accepted = new ArrayList<>();   // every id of the accepted history, in order
        Set<String> acceptedSet = new HashSet<>();   // the oracle: a plain set, independent of the reducer
        List<String> refusedOnly = new ArrayList<>(); // ids only ever seen in refused replies
        State s = State.EMPTY;
        int fresh = 0;
        for (int i = 0; i < choices.size(); i++) {
            int c = choices.get(i);
            List<Event> step = new ArrayList<>();
            if (!s.pending().isEmpty()) {
                List<PendingToolCall> open = s.pending().stream().filter(x -> !x.answered()).toList();
                PendingToolCall p = open.get(c % open.size()); // answered in any order
                step.add(new Event.ToolCallCompleted(p.toolUseId(), "result " + c, c % 5 == 0));
            } else if (s.isIdle()) {
                step.add(new Event.UserMessageReceived(Message.user("user " + c)));
            } else if (c % 10 < 3) {
                step.add(new Event.AssistantMessageReceived(Message.assistant(List.of(ContentBlock.text("reply " + c)),
                        StopReason.END_TURN, Usage.ZERO)));
                step.add(new Event.TurnCompleted("end_turn"));
            } else {
                int n = 1 + (c / 10) % 3;
                List<ContentBlock> blocks = new ArrayList<>();
                List<String> ids = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    int kind = (c / 30 + k * 7) % 20;
                    String id;
                    if (kind < 3 && !accepted.isEmpty()) {
                        id = accepted.get((c * 31 + k) % accepted.size()); // a reuse at any distance
                    } else if (kind == 3 && !ids.isEmpty()) {
                        id = ids.get(0); // a repeat within the reply
                    } else if (kind == 4 && !refusedOnly.isEmpty()) {
                        id = refusedOnly.get((c + k) % refusedOnly.size()); // was refused, never used: fine
                    } else {
                        id = "tu" + (fresh++);
                    }
                    ids.add(id);
                    blocks.add(new ContentBlock.ToolUse(id, "tool", Json.parse("{\"c\":" + c + "}", "input")));
                }
                String offending = null;
                Set<String> inReply = new HashSet<>();
                for (String id : ids) {
                    if (!inReply.add(id) || acceptedSet.contains(id)) {
                        offending = id;
                        break;
                    }
                }
                Event reply = new Event.AssistantMessageReceived(Message.assistant(blocks, StopReason.TOOL_USE, Usage.ZERO));
                if (offending != null) {
                    State before = s;
                    assertThatThrownBy(() -> Reducer.apply(before, reply))
                            .isInstanceOf(InvalidEventException.class).hasMessageContaining("'" + offending + "'");
                    for (String id : ids) {
                        if (!acceptedSet.contains(id) && !refusedOnly.contains(id)) {
                            refusedOnly.add(id);
                        }
                    }
                    continue; // nothing was recorded; the session goes on from the same state
                }
                step.add(reply);
                for (String id : ids) {
                    accepted.add(id);
                    acceptedSet.add(id);
                    refusedOnly.remove(id);
                }
            }
            for (Event e : step) {
                s = Reducer.apply(s, e); // an accepted reply must not throw
            }
            if (checkEveryStep) {
                assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
                for (String id : accepted) {
                    assertThat(s.toolUseIds().contains(id)).isTrue();
                }
            }
            steps.add(step);
        }
        return steps;
    }

    @Property(tries = 60)
    void theReducerRefusesExactlyTheReusedIdsAndEveryAcceptedHistoryIsValid(@ForAll("longChoices") List<Integer> choices) {
        List<List<Event>> steps = simulate(choices, true);
        State end = Reducer.fold(ReducerProperties.journal(steps));
        assertThat(TranscriptValidator.violations(end.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
        assertThat(end.toolUseIds()).isEqualTo(ToolUseIds.of(end.messages()));
    }

    @Property(tries = 60)
    void snapshotPlusTranscriptReplayEqualsAFullFoldOverLongHistories(@ForAll("longChoices") List<Integer> choices,
                                                                      @ForAll("cut") int cutPercent) {
        List<StoredEvent> journal = ReducerProperties.journal(simulate(choices, false));
        int cut = journal.size() * cutPercent / 100;
        State atCut = Reducer.fold(journal.subList(0, cut));
        State transcriptOnly = State.EMPTY;
        for (StoredEvent e : journal.subList(0, cut)) {
            transcriptOnly = Reducer.applyTranscriptOnly(transcriptOnly, e.event());
        }
        StateSnapshot snap = Json.read(Json.write(atCut.snapshot()), StateSnapshot.class);
        State s = State.fromSnapshot(snap, transcriptOnly.messages());
        assertThat(s.toolUseIds()).isEqualTo(atCut.toolUseIds());
        for (StoredEvent e : journal.subList(cut, journal.size())) {
            s = Reducer.apply(s, e);
        }
        assertThat(s).isEqualTo(Reducer.fold(journal));
    }
}
