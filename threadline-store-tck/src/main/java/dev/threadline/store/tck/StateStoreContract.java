package dev.threadline.store.tck;

import dev.threadline.core.store.StateStore;
import org.junit.jupiter.api.Nested;

/**
 * The whole conformance suite, which every {@link StateStore} runs. A backend's test extends this
 * class and implements {@link #open} (a fresh, empty store per test, taking its time from the given
 * clock), and {@link #capabilities} where the SPI lets it choose; that is its {@link StoreFixture}.
 * The tests are in one suite per role of the store ({@link ContractGuard#ROLE_SUITES}) and four
 * that span roles (lineage, tenancy, expiry, the store's lifecycle), each run here as a nested class, so a
 * report shows them by role ({@code SqliteStateStoreTest$LeasesTests}). Each suite stands alone: a
 * backend that wants one role alone extends that suite instead. The tests are final so that no
 * backend can skip one by overriding it, and {@link ContractGuard} checks the rest.
 *
 * <p>A backend's test, whole (the in-memory store's; the SQLite one adds a temporary directory):
 * <pre>{@code
 * class InMemoryStateStoreTest extends StateStoreContract {
 *     public StateStore open(Clock clock) {
 *         return new InMemoryStateStore(clock);
 *     }
 * }
 * }</pre>
 *
 * JUnit makes an instance per test (the nested suite's test); not shared between threads.
 */
public abstract class StateStoreContract implements StoreFixture<StateStore> {

    /** For a backend's test to extend. */
    protected StateStoreContract() {}

    @Nested
    final class SessionIndexTests extends SessionIndexContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class JournalTests extends JournalContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class JournalTailTests extends JournalTailContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class TextSearchTests extends TextSearchContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class SnapshotsTests extends SnapshotsContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class SharedVariablesTests extends SharedVariablesContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class LeasesTests extends LeasesContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class CommandLogTests extends CommandLogContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class HistoryPruningTests extends HistoryPruningContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class DataKeysTests extends DataKeysContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class ResealingTests extends ResealingContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class LineageTests extends LineageContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class TenancyTests extends TenancyContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class ExpiryTests extends ExpiryContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }

    @Nested
    final class LifecycleTests extends LifecycleContract<StateStore> {
        @Override
        protected StoreFixture<StateStore> fixture() {
            return StateStoreContract.this;
        }
    }
}
