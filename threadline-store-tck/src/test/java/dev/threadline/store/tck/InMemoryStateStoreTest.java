package dev.threadline.store.tck;

import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Clock;

/** The contract run against the in-memory store. */
class InMemoryStateStoreTest extends StateStoreContract {
    @Override
    public StateStore open(Clock clock) {
        return new InMemoryStateStore(clock);
    }
}
