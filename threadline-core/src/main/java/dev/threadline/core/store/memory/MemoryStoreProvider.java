package dev.threadline.core.store.memory;

import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StoreProvider;

/**
 * The {@code memory:} store URL: a new, empty {@link InMemoryStateStore} on each open. Found by
 * {@link dev.threadline.core.store.StateStores} through the service loader like every other backend, so the SPI
 * package does not depend on this implementation. Stateless and thread-safe.
 */
public final class MemoryStoreProvider implements StoreProvider {
    /** The provider; the service loader calls this. */
    public MemoryStoreProvider() {}

    /** Takes {@code memory:} (and the bare word {@code memory}). */
    @Override
    public boolean accepts(String url) {
        return url.equals("memory:") || url.equals("memory");
    }

    /** A new, empty in-memory store: it forgets everything when the process ends. */
    @Override
    public StateStore open(String url) {
        return new InMemoryStateStore();
    }

    @Override
    public String forms() {
        return "memory:";
    }
}
