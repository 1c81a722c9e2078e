package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import org.junit.jupiter.api.Test;

/**
 * Interrupt requests on a lease ({@link dev.threadline.core.store.Leases#requestInterrupt},
 * {@link dev.threadline.core.store.Leases#takeInterruptRequest}): how a process asks the one running a
 * session's turn to interrupt it. Every store carries them: a request is recorded, taken once, only
 * by the lease of the epoch it was made for, never by a later lease, and gone with its session.
 */
public abstract class InterruptRequestContract extends CommandLogContract {

    private Lease current(String id) {
        return store.lease(key(id)).orElseThrow();
    }

    private Lease acquire(String id, String owner) {
        LeaseResult r = store.acquire(key(id), owner, TTL, null);
        assertThat(r).isInstanceOf(LeaseResult.Acquired.class);
        return ((LeaseResult.Acquired) r).lease();
    }

    @Test
    public final void aRequestIsTakenOnceByTheLeaseOfItsEpoch() {
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
        createRoot("s", 1);
        Lease lease = current("s");
        store.requestInterrupt(key("s"), lease.epoch(), "first");
        store.requestInterrupt(key("s"), lease.epoch(), "second");

        assertThat(store.takeInterruptRequest(lease)).contains("second");
        assertThat(store.takeInterruptRequest(lease)).isEmpty();
    }

    @Test
    public final void requestsBelongToOneSessionOfOneTenant() {
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
