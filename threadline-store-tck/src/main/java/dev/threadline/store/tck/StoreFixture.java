package dev.threadline.store.tck;

import java.time.Clock;

/**
 * A backend's part in the TCK: it opens fresh, empty stores on the clock a suite drives, and declares
 * what it does where the SPI lets a store choose ({@link Capabilities}). A backend runs the whole
 * contract by extending {@link StateStoreContract}, which is this fixture; a backend that runs one
 * role alone hands a fixture to that role's suite (see {@link StoreContractSupport#fixture()}).
 * Implementations are called from the test's thread only.
 *
 * @param <S> the store, typed as the roles a suite uses (a {@code StateStore} serves every suite)
 */
@FunctionalInterface
public interface StoreFixture<S> {

    /**
     * A fresh, empty store that takes its time (update times, lease expiry) from {@code clock}. The
     * suite closes it after the test when it is {@link AutoCloseable}.
     */
    S open(Clock clock);

    /** What this backend does where the SPI lets a store choose; by default everything the SPI describes. */
    default Capabilities capabilities() {
        return Capabilities.FULL;
    }
}
