package dev.threadline.store.tck;

import dev.threadline.core.store.InMemoryStateStore;
import dev.threadline.core.store.StateStore;

/** The contract run against the in-memory store. */
class InMemoryStateStoreTest extends StateStoreContract {
    @Override
    protected StateStore createStore() {
        return new InMemoryStateStore(clock());
    }
}
