package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Lifecycle and helpers shared by the parts of {@link StateStoreContract}: a fresh store per test,
 * closed after it, and shortcuts to build journals. Backends extend {@link StateStoreContract}, not
 * this class.
 */
public abstract class StoreContractSupport {

    private final TickingClock clock = new TickingClock(StoreFixtures.T0.plusSeconds(3600));

    /** The store under test, fresh and empty for each test. */
    protected StateStore store;

    /** A fresh, empty store. Called once before each test; the contract closes it afterwards. */
    protected abstract StateStore createStore();

    /**
     * The clock a store under test should take its time from: each reading is 1 ms after the last,
     * so ordering by update time is deterministic. A store that takes no clock still passes as long
     * as its own clock moves forward between two operations.
     */
    protected final Clock clock() {
        return clock;
    }

    @BeforeEach
    final void openStore() {
        store = createStore();
        assertThat(store).as("createStore()").isNotNull();
    }

    @AfterEach
    final void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    /** Creates a root session whose journal holds {@code length} events (SessionCreated, then messages). */
    protected final SessionInfo createRoot(SessionInfo info, int length) {
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(info.id(), 2, length - 1));
        store.create(info, events);
        return info;
    }

    protected final SessionInfo createRoot(String id, int length) {
        return createRoot(StoreFixtures.root(id), length);
    }

    /** Creates a branch of {@code parent} at {@code atSeq} with {@code own} events of its own (BranchCreated first). */
    protected final SessionInfo createBranch(SessionInfo parent, String id, long atSeq, int own) {
        SessionInfo info = StoreFixtures.branch(parent, id, atSeq);
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(id, atSeq + 2, own - 1));
        store.create(info, events);
        return info;
    }

    /** Appends {@code count} message events at the session's head and returns the new head. */
    protected final long appendMessages(String sessionId, int count) {
        long head = store.head(sessionId);
        return store.append(sessionId, head, StoreFixtures.messages(sessionId, head + 1, count), List.of());
    }

    /** The seqs of a list of events, in order. */
    protected static List<Long> seqs(List<StoredEvent> events) {
        return events.stream().map(StoredEvent::seq).toList();
    }
}
