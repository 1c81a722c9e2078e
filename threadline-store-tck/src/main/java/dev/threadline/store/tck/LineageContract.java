package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.internal.store.Lineage;
import dev.threadline.core.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Branches (forks and rewinds) and snapshots: a branch shares its parent's prefix and stores only its own events. JUnit
 * makes an instance per test; not shared between threads.
 */
public abstract class LineageContract extends ConcurrencyContract {

    @Test
    public final void lineageReadsAForkOfAFork() {
        SessionInfo a = createRoot("a", 6);
        SessionInfo b = createBranch(a, "b", 4, 3);      // b: a1..a4, then b5..b7
        SessionInfo c = createBranch(b, "c", 6, 2);      // c: a1..a4, b5, b6, then c7..c8
        appendMessages("a", 2);                          // the parent moves on: a7, a8 are not c's

        assertThat(store.session(key("c"))).contains(c);
        assertThat(store.head(key("b"))).isEqualTo(7);
        assertThat(store.head(key("c"))).isEqualTo(8);
        assertThat(seqs(store.readOwn(key("b"), 1, 100))).containsExactly(5L, 6L, 7L);
        assertThat(seqs(store.readOwn(key("c"), 1, 100))).containsExactly(7L, 8L);
        assertThat(store.readOwn(key("c"), 1, 100)).allSatisfy(e -> assertThat(e.sessionId()).isEqualTo("c"));

        List<StoredEvent> expected = new ArrayList<>(store.readOwn(key("a"), 1, 4));
        expected.addAll(store.readOwn(key("b"), 5, 6));
        expected.addAll(store.readOwn(key("c"), 7, 8));
        List<StoredEvent> journal = Lineage.read(store, key("c"), 1, 8);
        assertThat(journal).isEqualTo(expected);
        assertThat(seqs(journal)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(journal.stream().map(StoredEvent::sessionId).toList())
                .containsExactly("a", "a", "a", "a", "b", "b", "c", "c");
        assertThat(Lineage.read(store, key("c"), 3, 5)).isEqualTo(expected.subList(2, 5));
        assertThat(Lineage.readTranscript(store, key("c"), 1, 8))
                .isEqualTo(expected.stream().filter(e -> e.event().touchesTranscript()).toList());
        assertThat(store.readOwn(key("a"), 7, 8)).hasSize(2);
    }

    @Test
    public final void branchAtTheParentHeadIsAllowed() {
        SessionInfo a = createRoot("a", 3);
        createBranch(a, "b", 3, 1);

        assertThat(store.head(key("b"))).isEqualTo(4);
        assertThat(seqs(store.readOwn(key("b"), 1, 10))).containsExactly(4L);
        assertThat(append("b", 4, StoreFixtures.messages("b", 5, 1))).isEqualTo(5);
        assertThat(store.head(key("a"))).isEqualTo(3);
    }

    @Test
    public final void branchesListsDirectChildrenOnly() {
        SessionInfo a = createRoot("a", 5);
        SessionInfo b1 = createBranch(a, "b1", 2, 1);
        createBranch(a, "b2", 5, 2);
        createBranch(b1, "c1", 3, 1);
        createRoot("unrelated", 2);

        assertThat(store.branches(key("a"))).containsExactlyInAnyOrder("b1", "b2");
        assertThat(store.branches(key("b1"))).containsExactly("c1");
        assertThat(store.branches(key("b2"))).isEmpty();
        assertThat(store.branches(key("c1"))).isEmpty();
    }

    @Test
    public final void latestSnapshotIsTheNewestAtOrBeforeMaxSeq() {
        createRoot("s", 10);
        StateSnapshot s3 = RoundTripFixtures.snapshot(3);
        StateSnapshot s6 = RoundTripFixtures.snapshot(6);
        store.saveSnapshot(key("s"), s6);
        store.saveSnapshot(key("s"), s3);

        assertThat(store.latestSnapshot(key("s"), 2)).isEmpty();
        assertThat(store.latestSnapshot(key("s"), 3)).contains(s3);
        assertThat(store.latestSnapshot(key("s"), 5)).contains(s3);
        assertThat(store.latestSnapshot(key("s"), 6)).contains(s6);
        assertThat(store.latestSnapshot(key("s"), Long.MAX_VALUE)).contains(s6);
        createRoot("other", 2);
        assertThat(store.latestSnapshot(key("other"), 100)).isEmpty();
    }

    @Test
    public final void snapshotsOfUnknownSessionsAreRefused() {
        assertThatThrownBy(() -> store.saveSnapshot(key("nope"), RoundTripFixtures.snapshot(1)))
                .isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.latestSnapshot(key("nope"), 1)).isInstanceOf(SessionNotFoundException.class);
    }

    @Test
    public final void lineageSnapshotFallsBackToTheParentOnlyBeforeTheBranchPoint() {
        SessionInfo a = createRoot("a", 8);
        StateSnapshot a2 = RoundTripFixtures.snapshot(2);
        StateSnapshot a5 = RoundTripFixtures.snapshot(5);
        store.saveSnapshot(key("a"), a2);
        store.saveSnapshot(key("a"), a5);
        SessionInfo b = createBranch(a, "b", 4, 4);      // b shares a1..a4, owns b5..b8

        assertThat(Lineage.latestSnapshot(store, key("b"), 8)).contains(a2);
        assertThat(Lineage.latestSnapshot(store, key("b"), 3)).contains(a2);
        assertThat(Lineage.latestSnapshot(store, key("b"), 1)).isEmpty();
        assertThat(Lineage.latestSnapshot(store, key("a"), 8)).contains(a5);

        StateSnapshot b6 = RoundTripFixtures.snapshot(6);
        store.saveSnapshot(key("b"), b6);
        assertThat(Lineage.latestSnapshot(store, key("b"), 8)).contains(b6);
        assertThat(Lineage.latestSnapshot(store, key("b"), 5)).contains(a2);

        createBranch(b, "c", 5, 1);                      // c shares a1..a4 and b5
        assertThat(Lineage.latestSnapshot(store, key("c"), 6)).contains(a2);
        assertThat(store.latestSnapshot(key("c"), 6)).isEmpty();
    }
}
