package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.Resealing;
import dev.threadline.core.store.Resealing.Resealed;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Resealing} (ADR 0049): a store opened with keys starts the next data key on a rotation, has nothing to wrap
 * again while the active key-encryption key wraps every data key, and seals every payload of a tenant again under its
 * newest data key, batch by batch, with every read the same afterwards and nothing left for a second pass. A store
 * opened without keys says so ({@link Resealing#seals()} false) and refuses all three, changing nothing. JUnit makes
 * an instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class ResealingContract<S extends SessionIndex & Journal & Leases & DataKeys & Resealing> extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected ResealingContract() {}

    @Test
    public final void aStoreWithoutKeysRefusesToTurnKeysOverAndChangesNothing() {
        if (store.seals()) {
            return; // see the tests below
        }
        SessionInfo info = createRoot("plain", 4);
        List<StoredEvent> before = store.readOwn(SessionKey.of(info), 1, 4);
        assertThatThrownBy(() -> store.rotateDataKey(SessionInfo.DEFAULT_TENANT)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("keys");
        assertThatThrownBy(() -> store.rewrapDataKeys(SessionInfo.DEFAULT_TENANT)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("keys");
        assertThatThrownBy(() -> store.reseal(SessionInfo.DEFAULT_TENANT, 10, r -> { })).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("keys");
        assertThat(store.readOwn(SessionKey.of(info), 1, 4)).isEqualTo(before);
        if (store.keepsDataKeys()) {
            assertThat(store.dataKeys(SessionInfo.DEFAULT_TENANT)).isEmpty();
        }
    }

    @Test
    public final void aRotationStartsTheNextDataKeyAndAResealLeavesEveryReadAsItWas() {
        if (!store.seals()) {
            return; // refused: see the test above
        }
        String tenant = SessionInfo.DEFAULT_TENANT;
        SessionInfo one = createRoot("one", 6);
        SessionInfo two = createRoot("two", 3);
        List<StoredEvent> oneBefore = store.readOwn(SessionKey.of(one), 1, 6);
        List<StoredEvent> twoBefore = store.readOwn(SessionKey.of(two), 1, 3);
        int keys = store.dataKeys(tenant).size();
        assertThat(keys).as("the writes made the tenant's first data key").isPositive();

        assertThat(store.rotateDataKey(tenant)).isEqualTo(keys + 1);
        assertThat(store.dataKeys(tenant)).hasSize(keys + 1);
        assertThat(store.rewrapDataKeys(tenant)).as("every data key is under the active key-encryption key").isZero();

        List<Resealed> progress = new ArrayList<>();
        Resealed done = store.reseal(tenant, 2, progress::add);
        assertThat(done.tenant()).isEqualTo(tenant);
        assertThat(done.dataKey()).isEqualTo(keys + 1);
        assertThat(done.resealed()).as("at least the nine events").isGreaterThanOrEqualTo(9).isLessThanOrEqualTo(done.examined());
        assertThat(progress).hasSizeGreaterThan(1).last().isEqualTo(done);
        assertThat(store.readOwn(SessionKey.of(one), 1, 6)).isEqualTo(oneBefore);
        assertThat(store.readOwn(SessionKey.of(two), 1, 3)).isEqualTo(twoBefore);
        assertThat(store.reseal(tenant, 2, r -> { }).resealed()).as("nothing left for a second pass").isZero();
        assertThat(store.dataKeys(tenant)).as("the older data keys stay").hasSize(keys + 1);
    }

    @Test
    public final void aResealOfABatchBelowOneIsRefused() {
        if (!store.seals()) {
            return;
        }
        assertThatThrownBy(() -> store.reseal(SessionInfo.DEFAULT_TENANT, 0, r -> { })).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("batch");
    }
}
