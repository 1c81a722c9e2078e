package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.StateStore;
import org.junit.jupiter.api.Test;

/**
 * The store as one object: it says in one line what it guarantees once a call returns, and closing it
 * twice is harmless. JUnit makes an instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class LifecycleContract<S extends StateStore> extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected LifecycleContract() {}

    @Test
    public final void durabilityIsDescribedAndCloseIsIdempotent() {
        assertThat(store.durability()).isNotBlank().doesNotContain("\n");
        store.close();
        store.close();
    }
}
