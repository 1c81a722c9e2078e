package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.HistoryPruning;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.Snapshots;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link HistoryPruning} (ADR 0045): a prune keeps the base and removes the session's own events and
 * snapshots at or before it in one step, rows sealed past it included (their payloads stay readable);
 * appends go on; a base at or past the head, not past the current one or a branch's branch point, or one a
 * branch still needs, is refused and changes nothing. A backend that does not prune says so
 * ({@link HistoryPruning#prunesHistory()} false), refuses every prune and keeps no base. JUnit makes an
 * instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class HistoryPruningContract<S extends SessionIndex & Journal & Leases & Snapshots & HistoryPruning>
        extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected HistoryPruningContract() {}

    @Test
    public final void aPruneKeepsTheBaseAndRemovesTheEventsAndSnapshotsBeforeIt() {
        createRoot("s", 40);
        store.saveSnapshot(key("s"), RoundTripFixtures.snapshot(10));
        store.saveSnapshot(key("s"), RoundTripFixtures.snapshot(25)); // a store that seals puts 1..25 in segments
        List<Long> before = seqs(store.readOwn(key("s"), 21, 40));
        if (!store.prunesHistory()) {
            assertThatThrownBy(() -> store.prune(key("s"), base(20))).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("cannot prune history");
            assertThat(store.historyBase(key("s"))).isEmpty();
            assertThat(store.readOwn(key("s"), 1, 40)).hasSize(40);
            return;
        }
        HistoryBase base = base(20);
        store.prune(key("s"), base);

        assertThat(store.historyBase(key("s"))).contains(base);
        assertThat(seqs(store.readOwn(key("s"), 1, 40))).isEqualTo(before);
        assertThat(store.readOwn(key("s"), 21, 25)).allSatisfy(e -> assertThat(e.event()).isNotNull());
        assertThat(store.readOwnTranscriptEvents(key("s"), 1, 40)).hasSize(20); // messages 21..40, none before
        assertThat(store.latestSnapshot(key("s"), 24)).isEmpty();
        assertThat(store.latestSnapshot(key("s"), 40)).contains(RoundTripFixtures.snapshot(25));
        assertThat(store.head(key("s"))).isEqualTo(40);
        assertThat(appendMessages("s", 3)).isEqualTo(43);

        HistoryBase later = base(30);
        store.prune(key("s"), later);
        assertThat(store.historyBase(key("s"))).contains(later);
        assertThat(seqs(store.readOwn(key("s"), 1, 43))).containsExactly(31L, 32L, 33L, 34L, 35L, 36L, 37L, 38L, 39L, 40L, 41L, 42L, 43L);
        assertThat(store.latestSnapshot(key("s"), 40)).isEmpty();
    }

    @Test
    public final void aBadBaseIsRefusedAndChangesNothing() {
        SessionInfo root = createRoot("s", 30);
        createBranch(root, "fork", 12, 5);
        if (!store.prunesHistory()) {
            assertThatThrownBy(() -> store.prune(key("s"), base(10))).isInstanceOf(InvalidInputException.class);
            return;
        }
        assertThatThrownBy(() -> store.prune(key("s"), base(31))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("before the head 30");
        assertThatThrownBy(() -> store.prune(key("s"), base(30))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("before the head 30");
        assertThatThrownBy(() -> store.prune(key("s"), base(20))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("branch 'fork'").hasMessageContaining("seq 12");
        assertThatThrownBy(() -> store.prune(key("fork"), base(12))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("branch point");
        assertThatThrownBy(() -> store.prune(key("nope"), base(3))).isInstanceOf(SessionNotFoundException.class);
        assertThat(store.readOwn(key("s"), 1, 30)).hasSize(30);
        assertThat(store.historyBase(key("s"))).isEmpty();

        store.prune(key("s"), base(12)); // up to the branch point is allowed
        assertThatThrownBy(() -> store.prune(key("s"), base(12))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("already");
        assertThat(store.readOwn(key("s"), 1, 30)).hasSize(18);
        assertThat(store.readOwn(key("fork"), 13, 17)).hasSize(5);
    }

    @Test
    public final void aBranchIntoThePrunedHistoryIsRefusedByTheStore() {
        SessionInfo root = createRoot("s", 30);
        if (!store.prunesHistory()) {
            return;
        }
        store.prune(key("s"), base(20));
        // a fork whose point the runtime checked before the prune committed: the create itself refuses it
        assertThatThrownBy(() -> createBranch(root, "late", 15, 3)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("pruned through seq 20").hasMessageContaining("seq 15");
        assertThatThrownBy(() -> store.head(key("late"))).isInstanceOf(SessionNotFoundException.class);
        createBranch(root, "at-base", 20, 3); // at the base: it loads from the parent's base
        createBranch(root, "after", 25, 3);
        assertThat(store.head(key("at-base"))).isEqualTo(23);
        assertThat(store.head(key("after"))).isEqualTo(28);
    }

    @Test
    public final void aDeletedSessionTakesItsBaseWithIt() {
        createRoot("s", 10);
        if (!store.prunesHistory()) {
            assertThat(store.historyBase(key("s"))).isEmpty();
            return;
        }
        store.prune(key("s"), base(5));
        store.delete(key("s"));
        createRoot("s", 3);
        assertThat(store.historyBase(key("s"))).isEmpty();
        assertThat(store.readOwn(key("s"), 1, 10)).hasSize(3);
    }

    @Test
    public final void aSessionCreatedFromABaseReadsAsAPrunedOne() {
        SessionInfo info = StoreFixtures.root("copied");
        HistoryBase base = base(20);
        if (!store.prunesHistory()) {
            assertThatThrownBy(() -> store.createFromBase(info, base, StoreFixtures.messages("copied", 21, 3), null))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("cannot create a session from a history base");
            assertThatThrownBy(() -> store.head(key("copied"))).isInstanceOf(SessionNotFoundException.class);
            return;
        }
        store.createFromBase(info, base, StoreFixtures.messages("copied", 21, 5), null);

        assertThat(store.session(key("copied"))).contains(info);
        assertThat(store.historyBase(key("copied"))).contains(base);
        assertThat(store.head(key("copied"))).isEqualTo(25);
        assertThat(seqs(store.readOwn(key("copied"), 1, 25))).containsExactly(21L, 22L, 23L, 24L, 25L); // nothing before the base
        assertThat(store.readOwn(key("copied"), 21, 25)).allSatisfy(e -> assertThat(e.event()).isNotNull());
        assertThat(store.readOwnTranscriptEvents(key("copied"), 1, 25)).hasSize(5);
        lease(key("copied"));
        assertThat(appendMessages("copied", 2)).isEqualTo(27);
        createBranch(info, "fork", 22, 2); // a branch after the base, as of a pruned parent
        assertThatThrownBy(() -> createBranch(info, "early", 15, 2)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("pruned through seq 20");
    }

    @Test
    public final void aBadCreateFromABaseIsRefusedAndWritesNothing() {
        createRoot("s", 5);
        if (!store.prunesHistory()) {
            return;
        }
        HistoryBase base = base(20);
        assertThatThrownBy(() -> store.createFromBase(StoreFixtures.root("s"), base, StoreFixtures.messages("s", 21, 2), null))
                .isInstanceOf(dev.threadline.core.error.SessionExistsException.class);
        assertThat(store.historyBase(key("s"))).isEmpty();
        assertThat(store.readOwn(key("s"), 1, 30)).hasSize(5);
        SessionInfo info = StoreFixtures.root("c");
        assertThatThrownBy(() -> store.createFromBase(info, base, StoreFixtures.messages("c", 22, 2), null))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("expected seq 21");
        assertThatThrownBy(() -> store.createFromBase(info, base, List.of(), null)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> store.head(key("c"))).isInstanceOf(SessionNotFoundException.class);
    }

    /** A base at {@code seq} with as many messages as the fixture snapshot counts. */
    private static HistoryBase base(long seq) {
        StateSnapshot snap = RoundTripFixtures.snapshot(seq);
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < snap.messageCount(); i++) {
            messages.add(i % 2 == 0 ? Message.user("question " + i + " é \"quoted\"") : Message.assistantText("answer " + i));
        }
        return new HistoryBase(seq, "keep the latest 3 checkpoints", Instant.parse("2026-12-07T10:15:30.123456789Z"), snap, messages);
    }
}
