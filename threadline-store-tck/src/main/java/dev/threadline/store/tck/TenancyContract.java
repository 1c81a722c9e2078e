package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.Event;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Session ids are unique per tenant, in every role: two tenants may both have a session "secret", each
 * sees only its own rows, leases, commands, snapshots and branches, and another tenant's id behaves
 * exactly as an unknown one (architecture §3.5). JUnit makes an instance per test; not shared between
 * threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class TenancyContract<S extends StateStore> extends StoreContractSupport<S> {
    private static final SessionKey A = new SessionKey("tenant-a", "secret");
    private static final SessionKey B = new SessionKey("tenant-b", "secret");

    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected TenancyContract() {}

    private void both() {
        createRoot(root("secret", "tenant-a", "ann"), 3);
        createRoot(root("secret", "tenant-b", "bea"), 5);
    }

    @Test
    public final void twoTenantsCanEachHaveASessionOfTheSameId() {
        both();
        append(A, 3, messages("secret", 4, 1), List.of());

        assertThat(store.session(A)).get().extracting(SessionInfo::userId).isEqualTo("ann");
        assertThat(store.session(B)).get().extracting(SessionInfo::userId).isEqualTo("bea");
        assertThat(store.head(A)).isEqualTo(4);
        assertThat(store.head(B)).isEqualTo(5);
        assertThat(seqs(store.readOwn(B, 1, 100))).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(((Event.SessionCreated) store.readOwn(A, 1, 1).get(0).event()).session().tenant()).isEqualTo("tenant-a");
        assertThat(((Event.SessionCreated) store.readOwn(B, 1, 1).get(0).event()).session().tenant()).isEqualTo("tenant-b");
        assertThat(store.list(SessionQuery.tenant("tenant-a")).items()).singleElement()
                .satisfies(s -> assertThat(s.headSeq()).isEqualTo(4));
        assertThat(store.list(SessionQuery.tenant("tenant-b")).items()).singleElement()
                .satisfies(s -> assertThat(s.headSeq()).isEqualTo(5));
    }

    @Test
    public final void eachTenantSeesOnlyItsOwnLeaseCommandsSnapshotsAndBranches() {
        both();
        clock().advance(TTL.plusSeconds(1));
        LeaseResult taken = store.acquire(B, "b-worker", TTL, null);
        store.append(new AppendRequest(A, 3, epoch(A), messages("secret", 4, 1), List.of(),
                new CommandRecord(A, "c1", "submit:a", 4, null)));
        store.saveSnapshot(A, RoundTripFixtures.snapshot(2));
        createBranch(root("secret", "tenant-b", "bea"), "fork", 5, 2); // past a's head: only b's "secret" allows it

        assertThat(store.lease(A)).get().extracting(Lease::owner).isEqualTo(OWNER);
        assertThat(store.lease(B)).get().satisfies(l -> {
            assertThat(l.owner()).isEqualTo("b-worker");
            assertThat(l).isEqualTo(((LeaseResult.Acquired) taken).lease());
        });
        assertThat(store.command(A, "c1")).isPresent();
        assertThat(store.command(B, "c1")).isEmpty();
        assertThat(store.latestSnapshot(A, 10)).isPresent();
        assertThat(store.latestSnapshot(B, 10)).isEmpty();
        assertThat(store.branches(B)).containsExactly("fork");
        assertThat(store.branches(A)).isEmpty();
        assertThat(store.session(new SessionKey("tenant-a", "fork"))).isEmpty();
    }

    @Test
    public final void anotherTenantsIdIsNotFoundExactlyAsAnUnknownOne() {
        createRoot(root("secret", "tenant-a", "ann"), 3);
        SessionKey foreign = new SessionKey("tenant-b", "secret");
        SessionKey unknown = new SessionKey("tenant-c", "secret");
        Map<String, Consumer<SessionKey>> operations = new LinkedHashMap<>();
        operations.put("head", k -> store.head(k));
        operations.put("readOwn", k -> store.readOwn(k, 1, 10));
        operations.put("append", k -> store.append(AppendRequest.of(k, 3, 1, messages("secret", 4, 1))));
        operations.put("acquire", k -> store.acquire(k, "w", TTL, null));
        operations.put("lease", k -> store.lease(k));
        operations.put("command", k -> store.command(k, "c1"));
        operations.put("branches", k -> store.branches(k));
        operations.put("saveSnapshot", k -> store.saveSnapshot(k, RoundTripFixtures.snapshot(1)));
        operations.put("latestSnapshot", k -> store.latestSnapshot(k, 10));
        operations.put("delete", k -> store.delete(k));
        operations.put("awaitHead", k -> {
            try {
                store.awaitHead(k, 0, Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        List<String> checked = new ArrayList<>();
        operations.forEach((name, op) -> {
            String asUnknown = message(() -> op.accept(unknown));
            assertThat(message(() -> op.accept(foreign))).as(name).isEqualTo(asUnknown).doesNotContain("tenant-a");
            checked.add(name);
        });
        assertThat(checked).hasSize(operations.size());
        SessionInfo branch = StoreFixtures.branch(root("secret", "tenant-b", "bea"), "fork", 1);
        assertThatThrownBy(() -> store.create(branch, List.of(first(branch)))).isInstanceOf(SessionNotFoundException.class);
        assertThat(store.session(foreign)).isEmpty();
        assertThat(store.list(SessionQuery.tenant("tenant-b")).items()).isEmpty();
        assertThat(store.head(A)).isEqualTo(3);
        assertThat(store.lease(A)).get().extracting(Lease::epoch).isEqualTo(1L);
    }

    @Test
    public final void deletingInOneTenantLeavesTheOthersSessionOfTheSameId() {
        both();
        store.append(new AppendRequest(B, 5, epoch(B), messages("secret", 6, 1), List.of(),
                new CommandRecord(B, "c1", "submit:b", 6, null)));

        store.delete(A);
        assertThat(store.session(A)).isEmpty();
        assertThat(store.head(B)).isEqualTo(6);
        assertThat(seqs(store.readOwn(B, 1, 100))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(store.command(B, "c1")).isPresent();
        assertThat(store.lease(B)).get().extracting(Lease::owner).isEqualTo(OWNER);
    }

    private static String message(Runnable op) {
        try {
            op.run();
        } catch (SessionNotFoundException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a SessionNotFoundException");
    }
}
