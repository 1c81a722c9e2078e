package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.assistant;
import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.turnCompleted;
import static dev.threadline.store.tck.StoreFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.InvalidInputException;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Creating sessions, appending with an expected seq, and reading a session's own events back. JUnit makes an instance
 * per test; not shared between threads.
 */
public abstract class JournalContract extends StoreContractSupport {

    @Test
    public final void createdRootSessionCanBeReadBack() {
        SessionInfo info = root("s1");
        List<StoredEvent> events = List.of(first(info), user("s1", 2, "hello"), assistant("s1", 3, "hi"));
        store.create(info, events);

        assertThat(store.session(key("s1"))).contains(info);
        assertThat(store.head(key("s1"))).isEqualTo(3);
        assertThat(store.readOwn(key("s1"), 1, 3)).isEqualTo(events);
        assertThat(store.branches(key("s1"))).isEmpty();
        assertThat(store.lease(key("s1"))).as("no lease until one is acquired").isEmpty();
    }

    @Test
    public final void createWithTakenIdIsRefusedAndKeepsTheFirst() {
        createRoot("s1", 3);
        SessionInfo other = root("s1", SessionInfo.DEFAULT_TENANT, "bob");

        assertThatThrownBy(() -> store.create(other, List.of(first(other))))
                .isInstanceOf(SessionExistsException.class).hasMessageContaining("s1");
        assertThat(store.session(key("s1"))).contains(root("s1"));
        assertThat(store.head(key("s1"))).isEqualTo(3);
    }

    @Test
    public final void createBranchOfUnknownParentIsRefused() {
        SessionInfo orphan = StoreFixtures.branch(root("ghost"), "b1", 1);

        assertThatThrownBy(() -> store.create(orphan, List.of(first(orphan))))
                .isInstanceOf(SessionNotFoundException.class).hasMessageContaining("ghost");
        assertThat(store.session(key("b1"))).isEmpty();
    }

    @Test
    public final void createBranchPastParentHeadIsRefused() {
        SessionInfo parent = createRoot("p", 3);
        SessionInfo tooFar = StoreFixtures.branch(parent, "b1", 4);

        assertThatThrownBy(() -> store.create(tooFar, List.of(first(tooFar))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("parentSeq");
        assertThat(store.session(key("b1"))).isEmpty();
        assertThat(store.branches(key("p"))).isEmpty();
    }

    @Test
    public final void createWithBadFirstEventsWritesNothing() {
        SessionInfo info = root("s1");

        assertThatThrownBy(() -> store.create(info, List.of()))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> store.create(info, List.of(first(info), user("s1", 3, "gap"))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("seq");
        assertThat(store.session(key("s1"))).isEmpty();
        store.create(info, List.of(first(info)));
        assertThat(store.readOwn(key("s1"), 1, 10)).containsExactly(first(info));
    }

    @Test
    public final void appendReturnsTheNewHead() {
        createRoot("s1", 1);

        assertThat(append("s1", 1, messages("s1", 2, 2))).isEqualTo(3);
        assertThat(append("s1", 3, List.of(turnCompleted("s1", 4)))).isEqualTo(4);
        assertThat(store.head(key("s1"))).isEqualTo(4);
        assertThat(seqs(store.readOwn(key("s1"), 1, 4))).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    public final void appendWithWrongExpectedSeqConflictsAndWritesNothing() {
        createRoot("s1", 3);
        List<StoredEvent> before = store.readOwn(key("s1"), 1, 100);

        for (long stale : new long[] {0, 2, 4}) {
            assertThatThrownBy(() -> append("s1", stale, messages("s1", stale + 1, 1)))
                    .isInstanceOfSatisfying(VersionConflictException.class, e -> {
                        assertThat(e.sessionId()).isEqualTo("s1");
                        assertThat(e.expected()).isEqualTo(stale);
                        assertThat(e.actual()).isEqualTo(3);
                    });
        }
        assertThat(store.head(key("s1"))).isEqualTo(3);
        assertThat(store.readOwn(key("s1"), 1, 100)).isEqualTo(before);
    }

    @Test
    public final void appendOfBadBatchIsRefusedAndWritesNothing() {
        createRoot("s1", 3);
        createRoot("s2", 3);
        List<StoredEvent> before = store.readOwn(key("s1"), 1, 100);

        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 4, "a"), assistant("s1", 6, "gap"))))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 4, "a"), assistant("s1", 4, "dup"))))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 5, "skips 4"))))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 4, "a"), user("s2", 5, "foreign"))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("s2");
        assertThatThrownBy(() -> append("s1", 3, List.of()))
                .isInstanceOf(InvalidInputException.class);

        assertThat(store.head(key("s1"))).isEqualTo(3);
        assertThat(store.readOwn(key("s1"), 1, 100)).isEqualTo(before);
        assertThat(store.head(key("s2"))).isEqualTo(3);
    }

    @Test
    public final void operationsOnUnknownSessionAreRefused() {
        createRoot("s1", 2);
        SessionKey nope = key("nope");

        assertThatThrownBy(() -> store.append(AppendRequest.of(nope, 0, 1, List.of(user("nope", 1, "x")))))
                .isInstanceOf(SessionNotFoundException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> store.head(nope)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.readOwn(nope, 1, 10)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.readOwnTranscript(nope, 1, 10)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.branches(nope)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.command(nope, "c1")).isInstanceOf(SessionNotFoundException.class);
        assertThat(store.session(nope)).isEmpty();
        assertThat(store.head(key("s1"))).isEqualTo(2);
    }

    @Test
    public final void readOwnRangesAreInclusiveOrderedAndEmptyOutOfRange() {
        createRoot("s1", 10);
        SessionKey s1 = key("s1");

        assertThat(seqs(store.readOwn(s1, 1, 10))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(seqs(store.readOwn(s1, 4, 6))).containsExactly(4L, 5L, 6L);
        assertThat(seqs(store.readOwn(s1, 7, 7))).containsExactly(7L);
        assertThat(seqs(store.readOwn(s1, 0, 2))).containsExactly(1L, 2L);
        assertThat(seqs(store.readOwn(s1, 9, 500))).containsExactly(9L, 10L);
        assertThat(store.readOwn(s1, 11, 20)).isEmpty();
        assertThat(store.readOwn(s1, 6, 5)).isEmpty();
        assertThat(store.readOwn(s1, 3, 8)).isEqualTo(store.readOwn(s1, 1, 10).subList(2, 8));
    }

    @Test
    public final void readOwnTranscriptReturnsOnlyTranscriptEvents() {
        createRoot("s1", 3);
        SessionKey s1 = key("s1");
        append("s1", 3, List.of(turnCompleted("s1", 4), user("s1", 5, "again"), assistant("s1", 6, "ok"),
                turnCompleted("s1", 7)));

        List<StoredEvent> transcript = store.readOwnTranscript(s1, 1, 7);
        assertThat(seqs(transcript)).containsExactly(2L, 3L, 5L, 6L);
        assertThat(transcript).allSatisfy(e -> assertThat(e.event().touchesTranscript()).isTrue());
        assertThat(transcript).isEqualTo(store.readOwn(s1, 1, 7).stream()
                .filter(e -> e.event().touchesTranscript()).toList());
        assertThat(seqs(store.readOwnTranscript(s1, 4, 5))).containsExactly(5L);
        assertThat(store.readOwnTranscript(s1, 7, 7)).isEmpty();
    }

    @Test
    public final void everyKindOfEventRoundTripsExactly() {
        List<StoredEvent> all = new ArrayList<>(RoundTripFixtures.everyEvent("rt"));
        SessionInfo info = ((Event.SessionCreated) all.get(0).event()).session();
        SessionKey rt = SessionKey.of(info);
        store.create(info, all.subList(0, 1));
        lease(rt);
        append(rt, 1, all.subList(1, all.size()), List.of());

        assertThat(store.session(rt)).contains(info);
        assertThat(store.readOwn(rt, 1, all.size())).isEqualTo(all);
        for (StoredEvent e : all) {
            assertThat(store.readOwn(rt, e.seq(), e.seq())).as("seq %d", e.seq()).containsExactly(e);
        }
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
