package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.parse;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.setAppVar;
import static dev.threadline.store.tck.StoreFixtures.setUserVar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.InvalidInputException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.VersionConflictException;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.state.VariableScope;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite every {@link dev.threadline.core.store.StateStore} runs. A backend's test
 * extends this class and implements {@link #createStore()} (a fresh, empty store per test,
 * taking its time from {@link #clock()}). The tests live in this class and its superclasses, the suites
 * listed in {@link ContractGuard#SUITES} (journal, concurrency, lineage, leases, command log, tail,
 * paging, tenancy); they are final so that no backend can skip
 * one by overriding it, and {@link ContractGuard} checks the rest.
 *
 * <p>This part covers the sessions index, shared variables, deletion and the store's lifecycle.
 */
public abstract class StateStoreContract extends TenancyContract {
    private static final SessionKey T_S = new SessionKey("t", "s");

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
    public final void scopedWritesAreAppliedWithTheAppend() {
        createRoot(root("s", "t", "alice"), 1);
        String alice = ScopedWrite.userKey("t", "alice");

        append(T_S, 1, messages("s", 2, 1), List.of(
                setUserVar("t", "alice", "lang", "\"fr\""),
                setUserVar("t", "alice", "prefs", RoundTripFixtures.TOOL_INPUT),
                setAppVar("t", "motd", "{\"text\": \"hi é\", \"n\": [1, 2.5, null]}")));
        assertThat(store.variables(VariableScope.USER, alice)).isEqualTo(Map.of(
                "lang", parse("\"fr\""), "prefs", parse(RoundTripFixtures.TOOL_INPUT)));
        assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("t")))
                .isEqualTo(Map.of("motd", parse("{\"text\": \"hi é\", \"n\": [1, 2.5, null]}")));

        append(T_S, 2, messages("s", 3, 1), List.of(new ScopedWrite(VariableScope.USER, alice,
                Map.of("lang", parse("\"de\"")), List.of("prefs", "never-set"))));
        assertThat(store.variables(VariableScope.USER, alice)).isEqualTo(Map.of("lang", parse("\"de\"")));
        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("t", "bob"))).isEmpty();
        assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("other"))).isEmpty();
    }

    @Test
    public final void scopedWritesAreNotAppliedWhenTheAppendFails() {
        createRoot(root("s", "t", "alice"), 1);
        append(T_S, 1, messages("s", 2, 1), List.of(setUserVar("t", "alice", "lang", "\"fr\"")));

        assertThatThrownBy(() -> append(T_S, 1, messages("s", 2, 1),
                List.of(setUserVar("t", "alice", "lang", "\"xx\""), setAppVar("t", "flag", "true"))))
                .isInstanceOf(VersionConflictException.class);
        assertThatThrownBy(() -> append(T_S, 2, messages("s", 4, 1),
                List.of(setUserVar("t", "alice", "lang", "\"yy\""))))
                .isInstanceOf(InvalidInputException.class);

        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("t", "alice")))
                .isEqualTo(Map.of("lang", parse("\"fr\"")));
        assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("t"))).isEmpty();
        assertThat(store.head(T_S)).isEqualTo(2);
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

    @Test
    public final void durabilityIsDescribedAndCloseIsIdempotent() {
        assertThat(store.durability()).isNotBlank().doesNotContain("\n");
        store.close();
        store.close();
    }

}
