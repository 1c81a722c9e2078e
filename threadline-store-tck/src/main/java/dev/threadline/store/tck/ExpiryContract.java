package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Session expiry as retention reads it ({@link SessionIndex#expired}), across tenants: a session is
 * listed once the store's clock passes its {@link SessionInfo#expiresAt()}, oldest expiry first (ties by
 * tenant, then id), at most the limit; one that expires later, or never, or was deleted, is not; a
 * branch carries its parent's expiry and is listed on its own. Every expiry here is in the future when
 * the session is created and the test clock is moved past it (so a backend whose database also removes
 * expired data by its own time, like Redis, keeps it for the test). JUnit makes an instance per test; not
 * shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class ExpiryContract<S extends SessionIndex & Journal & Leases> extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected ExpiryContract() {}

    private Instant start;

    /** Creates a root session of {@code tenant} that expires {@code in} after the clock's start (null: never). */
    private SessionInfo expiring(String tenant, String id, Duration in) {
        if (start == null) {
            start = clock().instant();
        }
        SessionInfo info = new SessionInfo(id, tenant, "local", SessionConfig.DEFAULT, Map.of(), StoreFixtures.T0,
                in == null ? null : start.plus(in), null, 0);
        return createRoot(info, 3);
    }

    private static SessionKey in(String tenant, String id) {
        return new SessionKey(tenant, id);
    }

    @Test
    public final void expiredSessionsOfEveryTenantAreListedOldestFirstUpToTheLimit() {
        expiring("t1", "third", Duration.ofHours(3));
        expiring("t2", "first", Duration.ofHours(1));
        expiring("t1", "never", null);
        expiring("t1", "second", Duration.ofHours(2));
        expiring("t2", "later", Duration.ofHours(5));
        clock().advance(Duration.ofHours(4));

        Instant now = clock().instant();
        assertThat(store.expired(now, 10)).containsExactly(in("t2", "first"), in("t1", "second"), in("t1", "third"));
        assertThat(store.expired(now, 2)).containsExactly(in("t2", "first"), in("t1", "second"));
        assertThat(store.expired(now, 1)).containsExactly(in("t2", "first"));
    }

    @Test
    public final void aSessionIsListedOnceTheClockPassesItsExpiryAndNotBefore() {
        expiring("t1", "s1", Duration.ofMinutes(10));
        expiring("t1", "s2", null);
        assertThat(store.expired(clock().instant(), 10)).isEmpty();
        clock().advance(Duration.ofMinutes(9));
        assertThat(store.expired(clock().instant(), 10)).isEmpty();

        clock().advance(Duration.ofMinutes(2));
        assertThat(store.expired(clock().instant(), 10)).containsExactly(in("t1", "s1"));
    }

    @Test
    public final void aDeletedSessionIsNotListed() {
        expiring("t1", "gone", Duration.ofMinutes(1));
        expiring("t1", "kept", Duration.ofMinutes(2));
        store.delete(in("t1", "gone"));
        clock().advance(Duration.ofMinutes(3));

        assertThat(store.expired(clock().instant(), 10)).containsExactly(in("t1", "kept"));
    }

    @Test
    public final void aBranchCarriesItsParentsExpiryAndIsListedOnItsOwn() {
        SessionInfo parent = expiring(SessionInfo.DEFAULT_TENANT, "p", Duration.ofMinutes(1));
        createBranch(parent, "p-b", 2, 2);
        assertThat(store.session(key("p-b")).orElseThrow().expiresAt()).isEqualTo(parent.expiresAt());
        clock().advance(Duration.ofMinutes(2));

        assertThat(store.expired(clock().instant(), 10)).containsExactly(key("p"), key("p-b"));
    }

    @Test
    public final void aLimitOutsideOneToAThousandIsRefused() {
        Instant now = clock().instant();
        assertThatThrownBy(() -> store.expired(now, 0)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> store.expired(now, 1001)).isInstanceOf(InvalidInputException.class);
    }
}
