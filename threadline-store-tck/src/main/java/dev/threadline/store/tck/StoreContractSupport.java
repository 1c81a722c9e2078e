package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every suite of the contract stands on: a fresh store from the backend's {@link StoreFixture}
 * per test, closed after it, and shortcuts to set up data. Setting up data takes three roles, which
 * every suite's store therefore has: sessions are created through the {@link SessionIndex}, given
 * journals through the {@link Journal}, and leased through {@link Leases} (every session the helpers
 * create gets a lease for {@link #OWNER}, so the helpers' appends carry a valid fencing epoch). Each
 * suite extends this class directly and adds, in its type parameter's bounds, the role it tests and
 * the roles that role's operations write to; so any suite runs alone. JUnit makes an instance per
 * test; not shared between threads.
 *
 * @param <S> the store as the roles the suite uses
 */
public abstract class StoreContractSupport<S extends SessionIndex & Journal & Leases> {

    /** The owner the helpers take every session's lease for. */
    protected static final String OWNER = "tck-writer";
    /** The lease ttl the helpers use; tests pass expiry by advancing the clock past it. */
    protected static final Duration TTL = Duration.ofSeconds(30);

    private final TickingClock clock = new TickingClock(StoreFixtures.T0.plusSeconds(3600));
    private final Map<SessionKey, Long> epochs = new HashMap<>();
    private Capabilities capabilities = Capabilities.FULL;

    /** The store under test, fresh and empty for each test. */
    protected S store;

    /** For the suites of the contract, each of which extends this class directly. */
    protected StoreContractSupport() {}

    /**
     * The backend under test. Called once before each test; its store is opened on {@link #clock()}.
     * {@link StateStoreContract}'s suites return the backend's test itself; a backend that runs one
     * suite alone extends it and returns its fixture here, e.g. {@code return clock -> MyStore.open(clock);}.
     */
    protected abstract StoreFixture<? extends S> fixture();

    /**
     * The clock the store under test takes its time from (update times, lease expiry): each reading
     * is 1 ms after the last, so ordering by update time is deterministic, and the lease tests move it
     * past a lease's expiry with {@link TickingClock#advance}.
     */
    protected final TickingClock clock() {
        return clock;
    }

    /** What the backend under test declared it does where the SPI lets a store choose. */
    protected final Capabilities capabilities() {
        return capabilities;
    }

    @BeforeEach
    final void openStore() {
        StoreFixture<? extends S> fixture = fixture();
        assertThat(fixture).as("fixture()").isNotNull();
        capabilities = fixture.capabilities();
        assertThat(capabilities).as("capabilities()").isNotNull();
        store = fixture.open(clock);
        assertThat(store).as("open(clock)").isNotNull();
    }

    @AfterEach
    final void closeStore() throws Exception {
        if (store instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    /** The key of session {@code id} in the default tenant. */
    protected static SessionKey key(String id) {
        return new SessionKey(SessionInfo.DEFAULT_TENANT, id);
    }

    /** Creates a root session whose journal holds {@code length} events (SessionCreated, then messages), and leases it. */
    protected final SessionInfo createRoot(SessionInfo info, int length) {
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(info.id(), 2, length - 1));
        store.create(info, events);
        lease(SessionKey.of(info));
        return info;
    }

    /** Creates root session {@code id} with a journal of {@code length} events; returns its description. */
    protected final SessionInfo createRoot(String id, int length) {
        return createRoot(StoreFixtures.root(id), length);
    }

    /** Creates a branch of {@code parent} at {@code atSeq} with {@code own} events of its own (BranchCreated first), and leases it. */
    protected final SessionInfo createBranch(SessionInfo parent, String id, long atSeq, int own) {
        SessionInfo info = StoreFixtures.branch(parent, id, atSeq);
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(id, atSeq + 2, own - 1));
        store.create(info, events);
        lease(SessionKey.of(info));
        return info;
    }

    /** Creates root session {@code id} with only its first event and no lease (the other helpers lease their sessions). */
    protected final SessionKey unleased(String id) {
        store.create(StoreFixtures.root(id), List.of(StoreFixtures.first(StoreFixtures.root(id))));
        return key(id);
    }

    /** The lease an acquire got; fails the test when it was held by another owner. */
    protected static Lease acquired(LeaseResult result) {
        assertThat(result).isInstanceOf(LeaseResult.Acquired.class);
        return ((LeaseResult.Acquired) result).lease();
    }

    /** Takes the session's lease for {@link #OWNER} and remembers its epoch for the helpers' appends. */
    protected final long lease(SessionKey key) {
        LeaseResult r = store.acquire(key, OWNER, TTL, null);
        assertThat(r).as("lease of %s for the tck writer", key).isInstanceOf(LeaseResult.Acquired.class);
        long epoch = ((LeaseResult.Acquired) r).lease().epoch();
        epochs.put(key, epoch);
        return epoch;
    }

    /** The epoch the helpers append with: the one {@link #lease} last got for this session (1 if never). */
    protected final long epoch(SessionKey key) {
        return epochs.getOrDefault(key, 1L);
    }

    /** Appends under the helpers' lease of a default-tenant session. */
    protected final long append(String id, long expectedSeq, List<StoredEvent> events) {
        return append(id, expectedSeq, events, List.of());
    }

    /** Appends events and shared writes under the helpers' lease of a default-tenant session. */
    protected final long append(String id, long expectedSeq, List<StoredEvent> events, List<ScopedWrite> writes) {
        return append(key(id), expectedSeq, events, writes);
    }

    /** Appends events and shared writes under the helpers' lease of any session. */
    protected final long append(SessionKey key, long expectedSeq, List<StoredEvent> events, List<ScopedWrite> writes) {
        return store.append(new AppendRequest(key, expectedSeq, epoch(key), events, writes, null));
    }

    /** Appends {@code count} message events at the session's head and returns the new head. */
    protected final long appendMessages(String sessionId, int count) {
        long head = store.head(key(sessionId));
        return append(sessionId, head, StoreFixtures.messages(sessionId, head + 1, count));
    }

    /** The first page (up to {@code limit}) of a tenant's sessions, or of one user's when {@code userId} is not null. */
    protected final List<SessionSummary> list(String tenant, String userId, int limit) {
        return store.list(new SessionQuery(tenant, userId, null, limit, null)).items();
    }

    /** The ids of a list of summaries, in order. */
    protected static List<String> ids(List<SessionSummary> summaries) {
        return summaries.stream().map(s -> s.info().id()).toList();
    }

    /** The seqs of a list of events, in order. */
    protected static List<Long> seqs(List<StoredEvent> events) {
        return events.stream().map(StoredEvent::seq).toList();
    }
}
