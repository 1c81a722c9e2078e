package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.setUserVar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.InvalidInputException;
import dev.threadline.core.LeaseLostException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Leases and fencing: who may run a session, judged by the store's clock, and the epoch that makes
 * {@code append} refuse a writer whose lease was taken over. The clock is moved past a lease's expiry
 * with {@link TickingClock#advance}, never waited for. JUnit makes an instance per test; not shared between threads.
 */
public abstract class LeaseContract extends LineageContract {

    /** Creates a session with no lease (the helpers' createRoot leases its sessions). */
    private SessionKey unleased(String id) {
        store.create(root(id), List.of(first(root(id))));
        return key(id);
    }

    private Lease acquired(LeaseResult result) {
        assertThat(result).isInstanceOf(LeaseResult.Acquired.class);
        return ((LeaseResult.Acquired) result).lease();
    }

    private Lease previous(LeaseResult result) {
        assertThat(result).isInstanceOf(LeaseResult.Acquired.class);
        return ((LeaseResult.Acquired) result).previous();
    }

    @Test
    public final void theFirstAcquireGivesEpochOneAndTheSameOwnerRenewsAtTheSameEpoch() {
        SessionKey s = unleased("s");

        LeaseResult first = store.acquire(s, "w1", TTL, null);
        Lease lease = acquired(first);
        assertThat(lease.key()).isEqualTo(s);
        assertThat(lease.owner()).isEqualTo("w1");
        assertThat(lease.epoch()).isEqualTo(1);
        assertThat(previous(first)).isNull();
        assertThat(lease.expiresAt()).isAfter(clock().instant()).isBefore(clock().instant().plus(TTL));
        assertThat(store.lease(s)).contains(lease);

        LeaseResult again = store.acquire(s, "w1", TTL, null);
        assertThat(acquired(again).epoch()).isEqualTo(1);
        assertThat(acquired(again).expiresAt()).isAfter(lease.expiresAt());
        assertThat(previous(again)).as("renewing replaces no one").isNull();
        assertThat(store.lease(s)).contains(acquired(again));
    }

    @Test
    public final void anotherOwnerIsHeldOffUntilTheLeaseExpiresThenGetsTheNextEpoch() {
        SessionKey s = unleased("s");
        Lease w1 = acquired(store.acquire(s, "w1", TTL, null));

        assertThat(store.acquire(s, "w2", TTL, null)).isEqualTo(new LeaseResult.Held(w1));
        assertThat(store.lease(s)).contains(w1);

        clock().advance(TTL.plusSeconds(1));
        LeaseResult takeover = store.acquire(s, "w2", TTL, null);
        assertThat(acquired(takeover).owner()).isEqualTo("w2");
        assertThat(acquired(takeover).epoch()).isEqualTo(2);
        assertThat(previous(takeover)).isEqualTo(w1);
        assertThat(store.lease(s)).contains(acquired(takeover));
        assertThat(store.acquire(s, "w1", TTL, null)).isEqualTo(new LeaseResult.Held(acquired(takeover)));
    }

    @Test
    public final void aLeaseOfAHolderProvenDeadIsTakenAtOnce() {
        SessionKey s = unleased("s");
        Lease w1 = acquired(store.acquire(s, "w1", TTL, null));

        assertThat(store.acquire(s, "w2", TTL, "someone-else")).isEqualTo(new LeaseResult.Held(w1));
        LeaseResult takeover = store.acquire(s, "w2", TTL, "w1");
        assertThat(acquired(takeover).epoch()).isEqualTo(2);
        assertThat(previous(takeover)).isEqualTo(w1);
    }

    @Test
    public final void renewExtendsTheOwnLeaseAndIsRefusedAfterATakeover() {
        SessionKey s = unleased("s");
        Lease w1 = acquired(store.acquire(s, "w1", TTL, null));
        clock().advance(TTL.plusSeconds(1));

        Lease renewed = store.renew(w1, TTL);     // expired, but no one took it meanwhile
        assertThat(renewed.epoch()).isEqualTo(1);
        assertThat(renewed.expiresAt()).isAfter(w1.expiresAt());
        assertThat(store.lease(s)).contains(renewed);

        clock().advance(TTL.plusSeconds(1));
        Lease w2 = acquired(store.acquire(s, "w2", TTL, null));
        assertThatThrownBy(() -> store.renew(renewed, TTL))
                .isInstanceOfSatisfying(LeaseLostException.class, e -> {
                    assertThat(e.sessionId()).isEqualTo("s");
                    assertThat(e.epoch()).isEqualTo(1);
                    assertThat(e.currentEpoch()).isEqualTo(2);
                });
        assertThat(store.lease(s)).contains(w2);
        assertThat(store.renew(w2, TTL).epoch()).isEqualTo(2);
    }

    @Test
    public final void releaseFreesTheLeaseAndTheNextAcquireMovesTheEpochOn() {
        SessionKey s = unleased("s");
        Lease w1 = acquired(store.acquire(s, "w1", TTL, null));

        store.release(w1);
        assertThat(store.lease(s)).isEmpty();
        LeaseResult again = store.acquire(s, "w2", TTL, null);
        assertThat(acquired(again).epoch()).isEqualTo(2);
        assertThat(previous(again)).as("nothing was replaced: the lease was free").isNull();

        store.release(w1);                        // a stale release changes nothing
        assertThat(store.lease(s)).contains(acquired(again));
        assertThatThrownBy(() -> store.renew(w1, TTL)).isInstanceOf(LeaseLostException.class);
    }

    @Test
    public final void appendWithAStaleEpochIsRefusedAndWritesNothing() {
        createRoot("s", 2);
        SessionKey s = key("s");
        long stale = epoch(s);
        List<StoredEvent> before = store.readOwn(s, 1, 100);
        clock().advance(TTL.plusSeconds(1));
        Lease usurper = acquired(store.acquire(s, "usurper", TTL, null));

        AppendRequest late = new AppendRequest(s, 2, stale, messages("s", 3, 1),
                List.of(setUserVar("default", "local", "lang", "\"fr\"")), new CommandRecord(s, "c1", "submit:x", 3, null));
        assertThatThrownBy(() -> store.append(late))
                .isInstanceOfSatisfying(LeaseLostException.class, e -> {
                    assertThat(e.sessionId()).isEqualTo("s");
                    assertThat(e.epoch()).isEqualTo(stale);
                    assertThat(e.currentEpoch()).isEqualTo(usurper.epoch());
                });
        assertThat(store.head(s)).isEqualTo(2);
        assertThat(store.readOwn(s, 1, 100)).isEqualTo(before);
        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("default", "local"))).isEmpty();
        assertThat(store.command(s, "c1")).isEmpty();

        assertThat(store.append(new AppendRequest(s, 2, usurper.epoch(), late.events(), late.writes(), late.command())))
                .isEqualTo(3);
        assertThat(store.command(s, "c1")).contains(late.command());
    }

    @Test
    public final void anExpiredLeaseNobodyTookStillFencesNoOne() {
        createRoot("s", 1);
        clock().advance(TTL.multipliedBy(10));

        assertThat(appendMessages("s", 1)).as("only a takeover moves the epoch, not expiry").isEqualTo(2);
    }

    @Test
    public final void appendWithAnEpochNeverAcquiredIsRefused() {
        SessionKey s = unleased("s");

        assertThatThrownBy(() -> store.append(AppendRequest.of(s, 1, 1, messages("s", 2, 1))))
                .isInstanceOf(LeaseLostException.class);
        Lease w1 = acquired(store.acquire(s, "w1", TTL, null));
        assertThatThrownBy(() -> store.append(AppendRequest.of(s, 1, w1.epoch() + 1, messages("s", 2, 1))))
                .isInstanceOf(LeaseLostException.class);
        assertThat(store.head(s)).isEqualTo(1);
        assertThat(store.append(AppendRequest.of(s, 1, w1.epoch(), messages("s", 2, 1)))).isEqualTo(2);
    }

    @Test
    public final void leasesOfUnknownSessionsAreRefused() {
        SessionKey nope = key("nope");
        Lease ghost = new Lease(nope, "w1", 1, clock().instant().plus(TTL));

        assertThatThrownBy(() -> store.acquire(nope, "w1", TTL, null))
                .isInstanceOf(SessionNotFoundException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> store.renew(ghost, TTL)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.lease(nope)).isInstanceOf(SessionNotFoundException.class);
        assertThat(store.session(nope)).isEmpty();
    }

    @Test
    public final void aBadOwnerOrTtlIsRefusedAndTakesNothing() {
        SessionKey s = unleased("s");

        for (String owner : new String[] {null, "", "  "}) {
            assertThatThrownBy(() -> store.acquire(s, owner, TTL, null))
                    .as("owner '%s'", owner).isInstanceOf(InvalidInputException.class).hasMessageContaining("owner");
        }
        for (Duration ttl : new Duration[] {null, Duration.ZERO, Duration.ofSeconds(-5)}) {
            assertThatThrownBy(() -> store.acquire(s, "w1", ttl, null))
                    .as("ttl %s", ttl).isInstanceOf(InvalidInputException.class).hasMessageContaining("ttl");
        }
        assertThat(store.lease(s)).isEmpty();
        Lease w1 = acquired(store.acquire(s, "w1", TTL, null));
        assertThatThrownBy(() -> store.renew(w1, Duration.ZERO)).isInstanceOf(InvalidInputException.class);
        assertThat(store.lease(s)).contains(w1);
        assertThat(acquired(store.acquire(s, "w1", TTL, null)).epoch()).isEqualTo(1);
    }
}
