package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.assistant;
import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandLog;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@link SessionIndex}: creating sessions (refused, writing nothing, when the tenant has the id,
 * the parent is unknown, the branch point is past the parent's head or the first events are not
 * numbered from it), reading their description back, a session's branches, listing a tenant's
 * sessions by page (most recently updated first, ties by id; a cursor per page that only the query it
 * came from accepts; filters by user and by metadata, every given pair must match; limit 1..1000), and
 * deleting (refused while branches depend on it). A delete removes the session from every role, so
 * this suite also reads snapshots and command records. JUnit makes an instance per test; not shared
 * between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class SessionIndexContract<S extends SessionIndex & Journal & Leases & Snapshots & CommandLog>
        extends StoreContractSupport<S> {
    private static final String T = SessionInfo.DEFAULT_TENANT;

    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected SessionIndexContract() {}

    private static SessionInfo withMetadata(String id, String userId, Map<String, String> metadata) {
        return new SessionInfo(id, T, userId, SessionConfig.DEFAULT, metadata, StoreFixtures.T0, null, null, 0);
    }

    /** Every page of {@code query}, read to the end; checks each page's size and where the cursor stops. */
    private List<SessionSummary> walk(SessionQuery query) {
        List<SessionSummary> out = new ArrayList<>();
        SessionQuery q = query;
        for (int pages = 0; ; pages++) {
            assertThat(pages).as("pages of %s", query).isLessThan(100);
            Page<SessionSummary> page = store.list(q);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(query.limit());
            out.addAll(page.items());
            if (!page.hasNext()) {
                return out;
            }
            assertThat(page.items()).as("a page with a next cursor is full").hasSize(query.limit());
            q = q.at(page.nextCursor());
        }
    }

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
    public final void listNeverShowsAnotherTenantsSessions() {
        createRoot(root("a1", "tenant-a", "u1"), 2);
        createRoot(root("b1", "tenant-b", "u1"), 2);
        createRoot(root("a2", "tenant-a", "u2"), 2);

        assertThat(ids(store.list(SessionQuery.tenant("tenant-a")).items())).containsExactlyInAnyOrder("a1", "a2");
        assertThat(ids(store.list(SessionQuery.tenant("tenant-b")).items())).containsExactly("b1");
        assertThat(store.list(SessionQuery.tenant("tenant-c")).items()).isEmpty();
        assertThat(list(SessionInfo.DEFAULT_TENANT, null, 10)).isEmpty();
    }

    @Test
    public final void listFiltersByUser() {
        createRoot(root("a1", "t", "alice"), 2);
        createRoot(root("b1", "t", "bob"), 2);
        createRoot(root("a2", "t", "alice"), 2);
        createRoot(root("x1", "other", "alice"), 2);

        assertThat(ids(list("t", "alice", 100))).containsExactlyInAnyOrder("a1", "a2");
        assertThat(ids(list("t", "bob", 100))).containsExactly("b1");
        assertThat(list("t", "carol", 100)).isEmpty();
    }

    @Test
    public final void listShowsMostRecentlyUpdatedFirstWithHeadsAndLimit() {
        SessionInfo first = createRoot("first", 2);
        createRoot("second", 3);
        createBranch(first, "third", 2, 1);
        appendMessages("first", 2);

        List<SessionSummary> all = list(SessionInfo.DEFAULT_TENANT, null, 10);
        assertThat(ids(all)).containsExactly("first", "third", "second");
        assertThat(all.stream().map(SessionSummary::headSeq).toList()).containsExactly(4L, 3L, 3L);
        assertThat(all.get(0).info()).isEqualTo(first);
        assertThat(all.get(0).updatedAt()).isAfter(all.get(1).updatedAt());
        assertThat(all.get(1).updatedAt()).isAfter(all.get(2).updatedAt());
        assertThat(ids(list(SessionInfo.DEFAULT_TENANT, null, 2))).containsExactly("first", "third");
        assertThat(ids(list(SessionInfo.DEFAULT_TENANT, null, 1))).containsExactly("first");
    }

    @Test
    public final void pagesOfEveryLimitCoverEverySessionOnceInOrder() {
        for (int i = 0; i < 7; i++) {
            createRoot("s" + i, 1);
        }
        appendMessages("s3", 1);
        appendMessages("s0", 1);
        List<String> all = ids(list(T, null, SessionQuery.MAX_LIMIT));
        assertThat(all).hasSize(7).startsWith("s0", "s3").doesNotHaveDuplicates();

        for (int limit = 1; limit <= 8; limit++) {
            SessionQuery first = new SessionQuery(T, null, null, limit, null);
            assertThat(ids(walk(first))).as("limit %d", limit).isEqualTo(all);
            assertThat(store.list(first).items()).hasSize(Math.min(limit, 7));
        }
        assertThat(ids(list(T, null, SessionQuery.MAX_LIMIT))).as("listing changes nothing").isEqualTo(all);
    }

    @Test
    public final void metadataFilterKeepsSessionsHoldingEveryPair() {
        createRoot(withMetadata("x-prod", "u", Map.of("project", "x", "env", "prod")), 1);
        createRoot(withMetadata("x-dev", "u", Map.of("project", "x", "env", "dev")), 1);
        createRoot(withMetadata("y", "u", Map.of("project", "y", "odd.key \"q\"", "é 🧵")), 1);
        createRoot(withMetadata("none", "u", Map.of()), 1);

        assertThat(ids(walk(new SessionQuery(T, null, Map.of("project", "x"), 1, null)))).containsExactlyInAnyOrder("x-prod", "x-dev");
        assertThat(ids(walk(new SessionQuery(T, null, Map.of("project", "x", "env", "prod"), 5, null)))).containsExactly("x-prod");
        assertThat(ids(walk(new SessionQuery(T, null, Map.of("odd.key \"q\"", "é 🧵"), 5, null)))).containsExactly("y");
        assertThat(walk(new SessionQuery(T, null, Map.of("project", "z"), 5, null))).isEmpty();
        assertThat(walk(new SessionQuery(T, null, Map.of("env", "prod", "project", "y"), 5, null))).isEmpty();
        assertThat(walk(new SessionQuery(T, null, Map.of(), 5, null))).hasSize(4);
    }

    @Test
    public final void userFilterHoldsAcrossPages() {
        for (int i = 0; i < 5; i++) {
            createRoot(StoreFixtures.root("a" + i, T, "alice"), 1);
            createRoot(StoreFixtures.root("b" + i, T, "bob"), 1);
        }

        List<SessionSummary> alice = walk(new SessionQuery(T, "alice", null, 2, null));
        assertThat(ids(alice)).containsExactlyInAnyOrder("a0", "a1", "a2", "a3", "a4");
        assertThat(alice).allSatisfy(s -> assertThat(s.info().userId()).isEqualTo("alice"));
        assertThat(walk(new SessionQuery(T, "carol", null, 2, null))).isEmpty();
    }

    @Test
    public final void aCursorFromAnotherQueryOrGarbageIsRefused() {
        for (int i = 0; i < 3; i++) {
            createRoot(StoreFixtures.root("s" + i, T, "alice"), 1);
        }
        SessionQuery query = new SessionQuery(T, null, null, 1, null);
        String cursor = store.list(query).nextCursor();
        assertThat(cursor).isNotNull();

        List<SessionQuery> others = List.of(new SessionQuery(T, "alice", null, 1, cursor),
                new SessionQuery(T, null, Map.of("k", "v"), 1, cursor), new SessionQuery("other", null, null, 1, cursor));
        for (SessionQuery other : others) {
            assertThatThrownBy(() -> store.list(other)).as("%s", other)
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("cursor");
        }
        for (String garbage : new String[] {"", "garbage", "|||", cursor.substring(0, cursor.length() / 2), cursor + "|x", "9" + cursor}) {
            assertThatThrownBy(() -> store.list(query.at(garbage))).as("cursor '%s'", garbage)
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("cursor");
        }
        assertThat(store.list(new SessionQuery(T, null, null, 5, cursor)).items())
                .as("the page size may change between pages").hasSize(2);
    }

    @Test
    public final void theLimitIsBetweenOneAndOneThousand() {
        createRoot("s", 1);

        for (int bad : new int[] {0, -1, SessionQuery.MAX_LIMIT + 1}) {
            assertThatThrownBy(() -> new SessionQuery(T, null, null, bad, null))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
        }
        assertThat(store.list(new SessionQuery(T, null, null, 1, null)).items()).hasSize(1);
        assertThat(store.list(new SessionQuery(T, null, null, SessionQuery.MAX_LIMIT, null)).items()).hasSize(1);
        assertThat(store.list(new SessionQuery(T, null, null, 1, null)).hasNext()).isFalse();
    }

    @Test
    public final void deleteRemovesTheSessionAndItsRows() {
        createRoot("s", 5);
        store.saveSnapshot(key("s"), RoundTripFixtures.snapshot(3));
        createRoot("keep", 2);

        store.delete(key("s"));
        assertThat(store.session(key("s"))).isEmpty();
        assertThat(ids(list(SessionInfo.DEFAULT_TENANT, null, 10))).containsExactly("keep");
        assertThatThrownBy(() -> store.head(key("s"))).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.readOwn(key("s"), 1, 5)).isInstanceOf(SessionNotFoundException.class);

        createRoot("s", 2);                              // the id is free again, with nothing left over
        assertThat(seqs(store.readOwn(key("s"), 1, 10))).containsExactly(1L, 2L);
        assertThat(store.latestSnapshot(key("s"), 10)).isEmpty();
        assertThat(store.head(key("keep"))).isEqualTo(2);
    }

    @Test
    public final void deleteAlsoRemovesTheLeaseAndCommandRecords() {
        createRoot("s", 2);
        store.append(new AppendRequest(key("s"), 2, epoch(key("s")), messages("s", 3, 1), List.of(),
                new CommandRecord(key("s"), "c1", "submit:abc", 3, null)));

        store.delete(key("s"));
        createRoot("s", 1);                              // a new session of the same id starts clean
        assertThat(store.command(key("s"), "c1")).isEmpty();
        assertThat(store.lease(key("s"))).get().extracting(Lease::epoch).as("a fresh lease, epoch 1").isEqualTo(1L);
        assertThat(seqs(store.readOwn(key("s"), 1, 10))).containsExactly(1L);
    }

    @Test
    public final void deleteIsRefusedWhileBranchesExist() {
        SessionInfo a = createRoot("a", 4);
        createBranch(a, "b", 2, 2);

        assertThatThrownBy(() -> store.delete(key("a"))).isInstanceOf(InvalidInputException.class).hasMessageContaining("b");
        assertThat(store.head(key("a"))).isEqualTo(4);
        assertThat(store.readOwn(key("a"), 1, 4)).hasSize(4);

        store.delete(key("b"));
        assertThat(store.branches(key("a"))).isEmpty();
        assertThat(seqs(store.readOwn(key("a"), 1, 4))).containsExactly(1L, 2L, 3L, 4L);
        store.delete(key("a"));
        assertThat(store.session(key("a"))).isEmpty();
    }

    @Test
    public final void deleteOfUnknownSessionIsRefused() {
        assertThatThrownBy(() -> store.delete(key("nope")))
                .isInstanceOf(SessionNotFoundException.class).hasMessageContaining("nope");
    }
}
