package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Leases}: who may run a session, judged by the store's clock (moved past a lease's expiry with
 * {@link TickingClock#advance}, never waited for): the epoch each new holder gets, renewal, release, a
 * holder proven dead, owners racing for a free lease (exactly one gets it); and interrupt requests on a
 * lease, how a process asks the one running a session's turn to interrupt it (recorded, taken once,
 * only by the lease of the epoch it was made for, gone with its session). That the epoch fences appends
 * is {@link JournalContract}'s. JUnit makes an instance per test; the racing threads are the test's own.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class LeasesContract<S extends SessionIndex & Journal & Leases> extends StoreContractSupport<S> {
    private static final int THREADS = 8;

    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected LeasesContract() {}

    private Lease previous(LeaseResult result) {
        assertThat(result).isInstanceOf(LeaseResult.Acquired.class);
        return ((LeaseResult.Acquired) result).previous();
    }

    private Lease current(String id) {
        return store.lease(key(id)).orElseThrow();
    }

    private Lease acquire(String id, String owner) {
        LeaseResult r = store.acquire(key(id), owner, TTL, null);
        assertThat(r).isInstanceOf(LeaseResult.Acquired.class);
        return ((LeaseResult.Acquired) r).lease();
    }

    /**
     * Whether the store carries interrupt requests. When its fixture declares it does not
     * ({@link Capabilities#interruptRequests}), checks what the SPI prescribes then, on a session of its
     * own: a request is refused (false) and none is ever handed out.
     */
    private boolean carriesInterruptRequests() {
        if (capabilities().interruptRequests()) {
            return true;
        }
        createRoot("no-interrupts", 1);
        Lease lease = current("no-interrupts");
        assertThat(store.requestInterrupt(key("no-interrupts"), lease.epoch(), "x")).as("refused by a store without them").isFalse();
        assertThat(store.takeInterruptRequest(lease)).isEmpty();
        return false;
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

    @Test
    public final void ownersRacingForAFreeLeaseGetItOnceAndTheOthersSeeTheWinner() throws Exception {
        store.create(StoreFixtures.root("contended"), List.of(StoreFixtures.first(StoreFixtures.root("contended"))));
        SessionKey key = key("contended");
        CyclicBarrier barrier = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<LeaseResult> results = new ArrayList<>();
        try {
            List<Future<LeaseResult>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String owner = "owner-" + t;
                futures.add(pool.submit(() -> {
                    barrier.await(60, TimeUnit.SECONDS);
                    return store.acquire(key, owner, TTL, null);
                }));
            }
            for (Future<LeaseResult> f : futures) {
                results.add(f.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        List<Lease> won = results.stream().filter(r -> r instanceof LeaseResult.Acquired)
                .map(r -> ((LeaseResult.Acquired) r).lease()).toList();
        assertThat(won).singleElement().satisfies(l -> assertThat(l.epoch()).isEqualTo(1));
        assertThat(results).filteredOn(r -> r instanceof LeaseResult.Held).hasSize(THREADS - 1)
                .allSatisfy(r -> assertThat(((LeaseResult.Held) r).current()).isEqualTo(won.get(0)));
        assertThat(store.lease(key)).contains(won.get(0));
    }

    @Test
    public final void aRequestIsTakenOnceByTheLeaseOfItsEpoch() {
        if (!carriesInterruptRequests()) {
            return;
        }
        createRoot("s", 1);
        Lease lease = current("s");

        assertThat(store.takeInterruptRequest(lease)).as("nothing asked yet").isEmpty();
        assertThat(store.requestInterrupt(key("s"), lease.epoch(), "a new message")).as("recorded").isTrue();
        assertThat(store.takeInterruptRequest(lease)).contains("a new message");
        assertThat(store.takeInterruptRequest(lease)).as("taken once").isEmpty();
        assertThat(store.requestInterrupt(key("s"), lease.epoch(), "again")).isTrue();
        assertThat(store.takeInterruptRequest(store.renew(lease, TTL))).as("a renewal keeps the epoch").contains("again");
    }

    @Test
    public final void aRequestMadeForAnEarlierEpochIsNeverTaken() {
        if (!carriesInterruptRequests()) {
            return;
        }
        createRoot("s", 1);
        Lease first = current("s");
        store.requestInterrupt(key("s"), first.epoch(), "for the first holder");
        store.release(first);
        Lease second = acquire("s", "w2");

        assertThat(second.epoch()).isGreaterThan(first.epoch());
        assertThat(store.takeInterruptRequest(second)).as("made for the old epoch").isEmpty();
        assertThat(store.takeInterruptRequest(first)).as("the old lease is no longer current").isEmpty();
        assertThat(store.requestInterrupt(key("s"), first.epoch(), "late, for the first holder")).isTrue();
        assertThat(store.takeInterruptRequest(second)).as("a late request for the old epoch").isEmpty();
        assertThat(store.requestInterrupt(key("s"), second.epoch(), "for the second")).isTrue();
        assertThat(store.takeInterruptRequest(second)).contains("for the second");
    }

    @Test
    public final void aLaterRequestReplacesAnUntakenOne() {
        if (!carriesInterruptRequests()) {
            return;
        }
        createRoot("s", 1);
        Lease lease = current("s");
        store.requestInterrupt(key("s"), lease.epoch(), "first");
        store.requestInterrupt(key("s"), lease.epoch(), "second");

        assertThat(store.takeInterruptRequest(lease)).contains("second");
        assertThat(store.takeInterruptRequest(lease)).isEmpty();
    }

    @Test
    public final void requestsBelongToOneSessionOfOneTenant() {
        if (!carriesInterruptRequests()) {
            return;
        }
        createRoot("a", 1);
        createRoot("b", 1);
        createRoot(StoreFixtures.root("a", "tenant-2", "u"), 1);
        Lease otherLease = store.lease(new SessionKey("tenant-2", "a")).orElseThrow();
        store.requestInterrupt(key("a"), current("a").epoch(), "only a");

        assertThat(store.takeInterruptRequest(current("b"))).isEmpty();
        assertThat(store.takeInterruptRequest(otherLease)).as("same id, other tenant").isEmpty();
        assertThat(store.takeInterruptRequest(current("a"))).contains("only a");
    }

    @Test
    public final void anUnknownSessionIsRefusedAndADeletedOneLeavesNoRequestBehind() {
        if (!carriesInterruptRequests()) {
            return;
        }
        assertThatThrownBy(() -> store.requestInterrupt(key("nope"), 1, "x"))
                .isInstanceOf(SessionNotFoundException.class).hasMessageContaining("nope");
        createRoot("s", 1);
        store.requestInterrupt(key("s"), current("s").epoch(), "before the delete");
        store.delete(key("s"));
        createRoot("s", 1);

        assertThat(current("s").epoch()).as("a new session starts its epochs again").isEqualTo(1);
        assertThat(store.takeInterruptRequest(current("s"))).isEmpty();
    }
}
