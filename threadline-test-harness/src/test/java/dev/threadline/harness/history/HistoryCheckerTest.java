package dev.threadline.harness.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.event.StoredEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checker passes consistent histories and flags each kind of violation it knows. */
class HistoryCheckerTest {

    private static Operation op(String cid, String text, Outcome outcome) {
        return new Operation("s1", cid, text, outcome, "A");
    }

    private static List<Violation.Kind> kinds(List<Operation> ops, List<StoredEvent> journal) {
        return HistoryChecker.of(ops).check(Map.of("s1", journal)).stream().map(Violation::kind).toList();
    }

    @Test
    void aConsistentHistoryHasNoViolation() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), op("c2", "two", Outcome.UNKNOWN),
                op("c3", "three", Outcome.UNKNOWN), op("c4", "four", Outcome.FAILED),
                op("c5", "five", Outcome.FAILED), new Operation("s1", "c5", "five", Outcome.OK, "B"));
        List<StoredEvent> journal = Journals.of("s1").turn("c1", "one").turn("c2", "two")
                .user("c5", "five").toolUse("t1").toolResult("t1").reply("done").completed().build();

        assertThat(HistoryChecker.of(ops).check(Map.of("s1", journal))).isEmpty();
        HistoryChecker.of(ops).verify(Map.of("s1", journal));
    }

    @Test
    void userMessagesAreMatchedByTextWhenTheEventsCarryTheRuntimesOwnCommandIds() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), op("c2", "two", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").turn("uuid-1", "one").turn("uuid-2", "two").build();

        assertThat(kinds(ops, journal)).isEmpty();
    }

    @Test
    void anOkSubmissionThatAppearsTwiceIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").turn("c1", "one").turn("c1", "one").build();

        assertThat(kinds(ops, journal)).containsExactly(Violation.Kind.DUPLICATED);
    }

    @Test
    void anUnknownSubmissionThatAppearsTwiceIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.UNKNOWN));
        List<StoredEvent> journal = Journals.of("s1").turn("x", "one").turn("y", "one").build();

        assertThat(kinds(ops, journal)).containsExactly(Violation.Kind.DUPLICATED);
    }

    @Test
    void anOkSubmissionThatIsMissingIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), op("c2", "two", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").turn("c1", "one").build();

        assertThat(HistoryChecker.of(ops).check(Map.of("s1", journal)))
                .singleElement().satisfies(v -> {
                    assertThat(v.kind()).isEqualTo(Violation.Kind.LOST);
                    assertThat(v.description()).contains("id:c2", "'two'", "ok in A");
                });
    }

    @Test
    void aFailedSubmissionThatAppearsIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), op("c2", "two", Outcome.FAILED));
        List<StoredEvent> journal = Journals.of("s1").turn("c1", "one").turn("c2", "two").build();

        assertThat(kinds(ops, journal)).containsExactly(Violation.Kind.FAILED_BUT_APPLIED);
    }

    @Test
    void aUserMessageNoClientSentIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").turn("c1", "one").turn("c9", "ghost").build();

        assertThat(HistoryChecker.of(ops).check(Map.of("s1", journal)))
                .singleElement().satisfies(v -> {
                    assertThat(v.kind()).isEqualTo(Violation.Kind.UNSENT);
                    assertThat(v.description()).contains("seq 5", "ghost");
                });
    }

    @Test
    void aGapInTheSeqsIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").user("c1", "one").skipTo(4).reply("re").completed().build();

        assertThat(HistoryChecker.of(ops).check(Map.of("s1", journal)))
                .singleElement().satisfies(v -> {
                    assertThat(v.kind()).isEqualTo(Violation.Kind.SEQ);
                    assertThat(v.description()).contains("seq 4 follows seq 2");
                });
    }

    @Test
    void aDuplicateSeqIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").user("c1", "one").skipTo(2).reply("re").completed().build();

        assertThat(kinds(ops, journal)).containsExactly(Violation.Kind.SEQ);
    }

    @Test
    void interleavedTurnsAreFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), op("c2", "two", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").user("c1", "one").user("c2", "two").reply("re").completed().build();

        assertThat(kinds(ops, journal)).contains(Violation.Kind.INTERLEAVED);
    }

    @Test
    void aStaleWritersAppendAfterTheTakeOverClosedItsTurnIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.UNKNOWN));
        List<StoredEvent> journal = Journals.of("s1").user("c1", "one").toolUse("t1").toolFailed("t1").interrupted()
                .reply("late reply of the paused process").build();

        assertThat(kinds(ops, journal)).containsExactly(Violation.Kind.OUTSIDE_TURN);
    }

    @Test
    void aTurnThatNeverEndsIsFlaggedUnlessTheTestLeftARunMidTurn() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), op("c2", "two", Outcome.UNKNOWN));
        List<StoredEvent> journal = Journals.of("s1").turn("c1", "one").user("c2", "two").toolUse("t1").build();

        assertThat(kinds(ops, journal)).containsExactly(Violation.Kind.UNFINISHED_TURN);
        assertThat(HistoryChecker.of(ops).allowingUnfinishedLastTurn().check(Map.of("s1", journal))).isEmpty();
    }

    @Test
    void aJournalTheReducerRefusesIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK));
        List<StoredEvent> journal = Journals.of("s1").user("c1", "one").toolUse("t1").toolResult("t1").toolResult("t1")
                .reply("re").completed().build();

        assertThat(HistoryChecker.of(ops).check(Map.of("s1", journal)))
                .singleElement().satisfies(v -> {
                    assertThat(v.kind()).isEqualTo(Violation.Kind.REFUSED_BY_REDUCER);
                    assertThat(v.description()).contains("ToolCallCompleted at seq 6");
                });
    }

    @Test
    void anInvalidTranscriptIsFlagged() {
        // a tool_use id reused 70 messages later: today's reducer only looks 64 messages back, the validator
        // looks at all of them (once the reducer checks the whole history, it refuses the journal instead)
        Journals j = Journals.of("s1").user("c0", "t0").toolUse("dup").toolResult("dup").reply("ok").completed();
        List<Operation> ops = new java.util.ArrayList<>(List.of(op("c0", "t0", Outcome.OK)));
        for (int i = 1; i <= 35; i++) {
            j.turn("c" + i, "t" + i);
            ops.add(op("c" + i, "t" + i, Outcome.OK));
        }
        j.user("cx", "tx").toolUse("dup").toolResult("dup").reply("ok").completed();
        ops.add(op("cx", "tx", Outcome.OK));

        assertThat(kinds(ops, j.build())).containsAnyOf(Violation.Kind.INVALID_TRANSCRIPT, Violation.Kind.REFUSED_BY_REDUCER)
                .hasSize(1);
    }

    @Test
    void aSessionWithOperationsButNoJournalIsFlagged() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK));

        assertThat(HistoryChecker.of(ops).check(Map.of())).extracting(Violation::kind)
                .containsExactly(Violation.Kind.MISSING_JOURNAL);
    }

    @Test
    void verifyListsEveryViolation() {
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), op("c2", "two", Outcome.FAILED));
        List<StoredEvent> journal = Journals.of("s1").turn("c2", "two").build();

        assertThatThrownBy(() -> HistoryChecker.of(ops).verify(Map.of("s1", journal)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("2 history violation(s)")
                .hasMessageContaining("LOST in s1")
                .hasMessageContaining("FAILED_BUT_APPLIED in s1");
    }

    @Test
    void aBranchIsJudgedOnlyOnItsOwnEventsAfterAPrefixThatIsItsParents() {
        List<StoredEvent> parent = Journals.of("s1").turn("c1", "one").build();
        List<StoredEvent> branch = Journals.of("s1").turn("c1", "one").turn("c2", "two").build();
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), new Operation("b1", "c2", "two", Outcome.OK, "A"));
        Map<String, HistoryChecker.Branch> branches = Map.of("b1", new HistoryChecker.Branch("s1", parent.size()));

        assertThat(HistoryChecker.of(ops).withBranches(branches).check(Map.of("s1", parent, "b1", branch))).isEmpty();
        // without knowing the branch, the parent's message in it was sent by nobody on b1
        assertThat(HistoryChecker.of(ops).check(Map.of("s1", parent, "b1", branch)))
                .extracting(Violation::kind).containsExactly(Violation.Kind.UNSENT);
    }

    @Test
    void aBranchWhosePrefixIsNotItsParentsIsFlagged() {
        List<StoredEvent> parent = Journals.of("s1").turn("c1", "one").build();
        List<StoredEvent> branch = Journals.of("s1").turn("c1", "uno").turn("c2", "two").build();
        List<Operation> ops = List.of(op("c1", "one", Outcome.OK), new Operation("b1", "c2", "two", Outcome.OK, "A"));
        Map<String, HistoryChecker.Branch> branches = Map.of("b1", new HistoryChecker.Branch("s1", parent.size()));

        assertThat(HistoryChecker.of(ops).withBranches(branches).check(Map.of("s1", parent, "b1", branch)))
                .extracting(Violation::kind).containsExactly(Violation.Kind.BRANCH_PREFIX);
    }
}
