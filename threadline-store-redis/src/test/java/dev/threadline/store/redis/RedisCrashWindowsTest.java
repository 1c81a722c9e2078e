package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a writer that dies between a session's script and the cross-slot write after it leaves, and how
 * the store tolerates or repairs it. Each test makes the state such a crash leaves by editing the keys
 * directly (the second write undone), then checks what reads and the next write do.
 */
class RedisCrashWindowsTest {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static RedisProcess server;
    private final TickingClock clock = new TickingClock(StoreFixtures.T0.plusSeconds(3600));
    private String prefix;
    private Keys keys;
    private RedisStateStore store;
    private RawKeys raw;

    @BeforeAll
    static void startServer() {
        server = RedisProcess.start(List.of());
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void open() {
        prefix = "crash" + PREFIXES.incrementAndGet();
        keys = new Keys(prefix);
        store = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix(prefix).withClock(clock));
        raw = new RawKeys(server.url());
    }

    @AfterEach
    void close() {
        store.close();
        raw.close();
    }

    private SessionKey root(String id, int length) {
        SessionInfo info = StoreFixtures.root(id);
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(id, 2, length - 1));
        store.create(info, events);
        return SessionKey.of(info);
    }

    private long lease(SessionKey key) {
        return ((LeaseResult.Acquired) store.acquire(key, "w1", Duration.ofSeconds(30), null)).lease().epoch();
    }

    private List<String> listed() {
        return store.list(SessionQuery.tenant("default")).items().stream().map(s -> s.info().id()).toList();
    }

    @Test
    void anAppendWhoseIndexUpdateWasLostIsListedAtItsOldPlaceWithItsTrueHead() {
        SessionKey a = root("a", 1);
        SessionKey b = root("b", 1);
        long epoch = lease(a);
        Double before = raw.redis().zscore(keys.index("default"), "a");
        store.append(AppendRequest.of(a, 1, epoch, StoreFixtures.messages("a", 2, 2)));
        raw.redis().zadd(keys.index("default"), before, "a"); // the index update never happened

        List<SessionSummary> page = store.list(SessionQuery.tenant("default")).items();
        assertThat(page.stream().map(s -> s.info().id())).containsExactly("b", "a");
        assertThat(page.get(1).headSeq()).as("the head is the session's own").isEqualTo(3);
        store.append(AppendRequest.of(a, 3, epoch, StoreFixtures.messages("a", 4, 1)));
        assertThat(listed()).as("the next append puts it right").containsExactly("a", "b");
        assertThat(store.head(b)).isEqualTo(1);
    }

    @Test
    void aCreateWhoseIndexEntryWasLostReadsRightAndIsListedAfterItsNextAppend() {
        SessionKey a = root("a", 2);
        raw.redis().zrem(keys.index("default"), "a");

        assertThat(listed()).isEmpty();
        assertThat(store.session(a)).isPresent();
        assertThat(store.head(a)).isEqualTo(2);
        store.append(AppendRequest.of(a, 2, lease(a), StoreFixtures.messages("a", 3, 1)));
        assertThat(listed()).containsExactly("a");
    }

    @Test
    void aDeleteThatDiedBeforeItsIndexAndParentUpdatesLeavesEntriesThatAreSkipped() {
        SessionKey a = root("a", 3);
        SessionInfo b = StoreFixtures.branch(StoreFixtures.root("a"), "b", 2);
        store.create(b, List.of(StoreFixtures.first(b)));
        String token = raw.redis().hget(keys.session(a)[5], "b");
        Double score = raw.redis().zscore(keys.index("default"), "b");
        store.delete(SessionKey.of(b));
        raw.redis().hset(keys.session(a)[5], "b", token);           // the parent never forgot it
        raw.redis().zadd(keys.index("default"), score, "b");          // nor did the index

        assertThat(listed()).containsExactly("a");
        assertThat(store.branches(a)).isEmpty();
        store.create(b, List.of(StoreFixtures.first(b)));            // the id is free again
        assertThat(store.branches(a)).containsExactly("b");
        store.delete(SessionKey.of(b));
        raw.redis().hset(keys.session(a)[5], "b", token);
        store.delete(a);                                              // a gone branch does not hold its parent
        assertThat(store.session(a)).isEmpty();
        assertThat(raw.under(prefix).keySet()).allSatisfy(k -> assertThat(k).contains(":idx:"));
    }

    @Test
    void aBranchWhoseParentNeverAdoptedItIsInvisibleAndItsIdIsFreedAfterTheClaimWindow() {
        SessionKey a = root("a", 3);
        SessionInfo b = StoreFixtures.branch(StoreFixtures.root("a"), "b", 2);
        store.create(b, List.of(StoreFixtures.first(b)));
        String[] bKeys = keys.session(SessionKey.of(b));
        raw.redis().hdel(keys.session(a)[5], "b");                    // the adoption never happened
        raw.redis().hset(bKeys[0], "pend", "1");
        raw.redis().zrem(keys.index("default"), "b");

        assertThat(store.session(SessionKey.of(b))).isEmpty();
        assertThatThrownBy(() -> store.head(SessionKey.of(b))).isInstanceOf(SessionNotFoundException.class);
        assertThat(store.branches(a)).isEmpty();
        assertThat(listed()).containsExactly("a");
        assertThatThrownBy(() -> store.create(b, List.of(StoreFixtures.first(b))))
                .as("within the claim window it may still be in flight").isInstanceOf(SessionExistsException.class);

        clock.advance(Duration.ofMinutes(2));
        store.create(b, List.of(StoreFixtures.first(b)));
        assertThat(store.session(SessionKey.of(b))).isPresent();
        assertThat(store.branches(a)).containsExactly("b");
        assertThat(raw.redis().hexists(bKeys[0], "pend")).isFalse();
    }

    @Test
    void aBranchAdoptedButNotMarkedFinishedIsFinishedByItsFirstReader() {
        root("a", 3);
        SessionInfo b = StoreFixtures.branch(StoreFixtures.root("a"), "b", 2);
        store.create(b, List.of(StoreFixtures.first(b)));
        String[] bKeys = keys.session(SessionKey.of(b));
        raw.redis().hset(bKeys[0], "pend", "1");                      // died after the adoption

        assertThat(store.session(SessionKey.of(b))).isPresent();
        assertThat(raw.redis().hexists(bKeys[0], "pend")).isFalse();
        assertThat(store.head(SessionKey.of(b))).isEqualTo(3);
    }

    @Test
    void sharedWritesOfAStepWhoseWriterDiedAreRolledForwardByTheNextAppend() {
        SessionKey s = root("s", 1);
        long epoch = lease(s);
        ScopedWrite lang = StoreFixtures.setUserVar("default", "local", "lang", "\"fr\"");
        store.append(new AppendRequest(s, 1, epoch, StoreFixtures.messages("s", 2, 1), List.of(lang), null));
        String userVars = keys.variables(VariableScope.USER, ScopedWrite.userKey("default", "local"));
        raw.redis().del(userVars);                                    // the writer died before applying them
        raw.redis().hset(keys.session(s)[0], "wip", Records.encodeWrites(List.of(lang)));

        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("default", "local"))).isEmpty();
        store.append(AppendRequest.of(s, 2, epoch, StoreFixtures.messages("s", 3, 1)));
        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("default", "local")))
                .containsEntry("lang", StoreFixtures.parse("\"fr\""));
        assertThat(raw.redis().hexists(keys.session(s)[0], "wip")).isFalse();
        assertThat(store.head(s)).isEqualTo(3);
    }
}
