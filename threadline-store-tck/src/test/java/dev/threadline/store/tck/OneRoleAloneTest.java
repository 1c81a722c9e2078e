package dev.threadline.store.tck;

import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Clock;

/**
 * One role's suite run alone, as a backend that implements (or is being built one role at a time) would
 * run it: the in-memory store against {@link SnapshotsContract} only, with no
 * {@link StateStoreContract} around it. Its fixture is the suite's own.
 */
class OneRoleAloneTest extends SnapshotsContract<InMemoryStateStore> {
    @Override
    protected StoreFixture<InMemoryStateStore> fixture() {
        return InMemoryStateStore::new;
    }
}
