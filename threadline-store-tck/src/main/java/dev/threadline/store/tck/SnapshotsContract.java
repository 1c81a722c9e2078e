package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.Snapshots;
import org.junit.jupiter.api.Test;

/**
 * {@link Snapshots}: the newest snapshot stored under a session at or before a seq, whatever order they
 * were saved in; a session's snapshots are its own; unknown sessions are refused. JUnit makes an
 * instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class SnapshotsContract<S extends SessionIndex & Journal & Leases & Snapshots>
        extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected SnapshotsContract() {}

    @Test
    public final void latestSnapshotIsTheNewestAtOrBeforeMaxSeq() {
        createRoot("s", 10);
        StateSnapshot s3 = RoundTripFixtures.snapshot(3);
        StateSnapshot s6 = RoundTripFixtures.snapshot(6);
        store.saveSnapshot(key("s"), s6);
        store.saveSnapshot(key("s"), s3);

        assertThat(store.latestSnapshot(key("s"), 2)).isEmpty();
        assertThat(store.latestSnapshot(key("s"), 3)).contains(s3);
        assertThat(store.latestSnapshot(key("s"), 5)).contains(s3);
        assertThat(store.latestSnapshot(key("s"), 6)).contains(s6);
        assertThat(store.latestSnapshot(key("s"), Long.MAX_VALUE)).contains(s6);
        createRoot("other", 2);
        assertThat(store.latestSnapshot(key("other"), 100)).isEmpty();
    }

    @Test
    public final void snapshotsOfUnknownSessionsAreRefused() {
        assertThatThrownBy(() -> store.saveSnapshot(key("nope"), RoundTripFixtures.snapshot(1)))
                .isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.latestSnapshot(key("nope"), 1)).isInstanceOf(SessionNotFoundException.class);
    }
}
