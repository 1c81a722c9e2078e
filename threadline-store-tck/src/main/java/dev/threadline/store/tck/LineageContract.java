package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.turnCompleted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.store.Lineage;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What spans the roles along a session's ancestry. A branch (fork or rewind) shares its parent's
 * prefix and stores only its own events; core's lineage reader joins them, and finds a branch's
 * snapshot in its parent only before the branch point. A store may seal the older transcript into
 * segments when a snapshot is saved (ADR 0028); every read still gives back exactly what was appended,
 * across segments and into a branch. Core's lineage reader takes a whole store, so this suite does.
 * JUnit makes an instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class LineageContract<S extends StateStore> extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected LineageContract() {}

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

    /**
     * A store may seal the transcript of its own journal into segments when a snapshot is saved (ADR
     * 0028): whatever it does, every read gives back exactly what was appended, across segment
     * boundaries, inside one, in a branch that starts inside one, and for every kind of event.
     */
    @Test
    public final void sealedTranscriptReadsBackExactlyOverEveryRange() {
        List<StoredEvent> all = new ArrayList<>(RoundTripFixtures.everyEvent("seal"));
        SessionInfo info = ((Event.SessionCreated) all.get(0).event()).session();
        SessionKey k = SessionKey.of(info);
        store.create(info, all.subList(0, 1));
        lease(k);
        append(k, 1, all.subList(1, all.size()), List.of());
        for (int round = 0; round < 6; round++) { // turns of messages and boundaries, a snapshot after each
            long head = store.head(k);
            List<StoredEvent> more = new ArrayList<>(StoreFixtures.messages("seal", head + 1, 19));
            more.add(turnCompleted("seal", head + 20));
            append(k, head, more, List.of());
            all.addAll(more);
            if (round != 2) { // one round without a snapshot: the next one seals two rounds at once
                store.saveSnapshot(k, RoundTripFixtures.snapshot(head + (round == 4 ? 7 : 20)));
            }
        }
        long head = store.head(k);
        assertThat(head).isEqualTo(all.size());
        List<StoredEvent> transcript = all.stream().filter(e -> e.event().touchesTranscript()).toList();

        assertThat(store.readOwn(k, 1, head)).isEqualTo(all);
        assertThat(store.readOwnTranscript(k, 1, head)).isEqualTo(transcript);
        assertThat(store.readOwnTranscriptEvents(k, 1, head)).isEqualTo(transcript.stream().map(StoredEvent::event).toList());
        for (long[] r : new long[][] {{1, 1}, {2, 9}, {30, 70}, {40, 41}, {59, 61}, {61, 61}, {45, 45}, {100, 125},
                {head - 3, head + 5}, {0, head}, {70, 30}}) {
            long from = r[0];
            long to = r[1];
            List<StoredEvent> want = all.stream().filter(e -> e.seq() >= from && e.seq() <= to).toList();
            List<StoredEvent> wantTranscript = want.stream().filter(e -> e.event().touchesTranscript()).toList();
            assertThat(store.readOwn(k, from, to)).as("readOwn %d..%d", from, to).isEqualTo(want);
            assertThat(store.readOwnTranscript(k, from, to)).as("readOwnTranscript %d..%d", from, to).isEqualTo(wantTranscript);
            assertThat(store.readOwnTranscriptEvents(k, from, to)).as("readOwnTranscriptEvents %d..%d", from, to)
                    .isEqualTo(wantTranscript.stream().map(StoredEvent::event).toList());
        }
        for (StoredEvent e : all) {
            assertThat(store.readOwn(k, e.seq(), e.seq())).as("seq %d", e.seq()).containsExactly(e);
        }

        // a branch from inside the first rounds: its lineage reads the parent's sealed prefix, then its own rows
        SessionInfo b = createBranch(info, "seal-b", 33, 25);
        SessionKey bk = SessionKey.of(b);
        store.saveSnapshot(bk, RoundTripFixtures.snapshot(50));
        List<StoredEvent> lineage = dev.threadline.core.internal.store.Lineage.read(store, bk, 1, store.head(bk));
        assertThat(lineage.subList(0, 33)).isEqualTo(all.subList(0, 33));
        assertThat(dev.threadline.core.internal.store.Lineage.readTranscriptEvents(store, bk, 1, store.head(bk)))
                .isEqualTo(lineage.stream().filter(e -> e.event().touchesTranscript()).map(StoredEvent::event).toList());
        assertThat(store.readOwn(bk, 34, store.head(bk))).isEqualTo(lineage.subList(33, lineage.size()));

        // reads wrote nothing: the same again
        assertThat(store.readOwn(k, 1, head)).isEqualTo(all);
        // a deleted session leaves nothing behind: the id starts afresh
        store.delete(bk);
        assertThatThrownBy(() -> store.readOwnTranscriptEvents(bk, 1, 10)).isInstanceOf(SessionNotFoundException.class);
    }
}
