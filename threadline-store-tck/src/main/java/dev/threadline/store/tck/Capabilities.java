package dev.threadline.store.tck;

/**
 * What a backend does where the store SPI lets it choose, declared in its {@link StoreFixture}. A
 * suite never skips a test for a missing capability: it checks the behaviour the SPI prescribes for a
 * store without it instead. Immutable.
 *
 * @param interruptRequests whether the store carries interrupt requests on its leases
 *                          ({@link dev.threadline.core.store.Leases#requestInterrupt}); a store that
 *                          does not must refuse every request (return false) and never hand one out
 */
public record Capabilities(boolean interruptRequests) {

    /** Everything the SPI describes: what every backend in this repository declares. */
    public static final Capabilities FULL = new Capabilities(true);

    /** These capabilities, for a store that does not carry interrupt requests. */
    public Capabilities withoutInterruptRequests() {
        return new Capabilities(false);
    }
}
