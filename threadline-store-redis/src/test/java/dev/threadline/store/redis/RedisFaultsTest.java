package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the contract cannot see from outside: refused scripts leave every key as it was, the server's
 * failure is one clear line and fast, and the store recovers by itself when the server is back. All on
 * a real throwaway server.
 */
class RedisFaultsTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    private static RedisProcess server;

    @BeforeAll
    static void startServer() {
        server = RedisProcess.start(List.of());
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private static RedisStateStore open(String prefix) {
        return RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix(prefix));
    }

    private static long lease(RedisStateStore store, SessionKey key, String owner) {
        return ((LeaseResult.Acquired) store.acquire(key, owner, TTL, null)).lease().epoch();
    }

    private static SessionInfo root(RedisStateStore store, String id, int length) {
        SessionInfo info = StoreFixtures.root(id);
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(id, 2, length - 1));
        store.create(info, events);
        return info;
    }

    @Test
    void refusedScriptsLeaveEveryKeyAsItWas() {
        try (RedisStateStore store = open("refuse"); RawKeys raw = new RawKeys(server.url())) {
            SessionInfo a = root(store, "a", 3);
            SessionKey k = SessionKey.of(a);
            long epoch = lease(store, k, "w1");
            store.append(new AppendRequest(k, 3, epoch, StoreFixtures.messages("a", 4, 1), List.of(),
                    new CommandRecord(k, "c1", "submit:x", 4, null)));
            Map<String, String> before = raw.under("refuse");
            assertThat(before).isNotEmpty();

            List<Runnable> refused = List.of(
                    () -> store.append(AppendRequest.of(k, 4, epoch + 1, StoreFixtures.messages("a", 5, 1))),
                    () -> store.append(AppendRequest.of(k, 3, epoch, StoreFixtures.messages("a", 4, 1))),
                    () -> store.append(new AppendRequest(k, 4, epoch, StoreFixtures.messages("a", 5, 2), List.of(
                            StoreFixtures.setAppVar("default", "flag", "true")), new CommandRecord(k, "c1", "submit:y", 5, null))),
                    () -> store.append(AppendRequest.of(k, 4, epoch, List.of(StoreFixtures.user("a", 6, "gap")))),
                    () -> store.create(a, List.of(StoreFixtures.first(a))),
                    () -> store.create(StoreFixtures.branch(a, "b", 9), List.of(StoreFixtures.first(StoreFixtures.branch(a, "b", 9)))),
                    () -> store.create(StoreFixtures.branch(a, "b", 2), List.of(StoreFixtures.first(StoreFixtures.branch(a, "b", 2))),
                            new CommandRecord(k, "c1", "fork:2", 2, "b")));
            List<Class<?>> expected = List.of(LeaseLostException.class, VersionConflictException.class,
                    DuplicateCommandException.class, InvalidInputException.class, SessionExistsException.class,
                    InvalidInputException.class, DuplicateCommandException.class);
            for (int i = 0; i < refused.size(); i++) {
                assertThatThrownBy(refused.get(i)::run).as("refusal %d", i).isInstanceOf(expected.get(i));
                assertThat(raw.under("refuse")).as("keys after refusal %d", i).isEqualTo(before);
            }
        }
    }

    @Test
    void eachStepPushesOnlyItsOwnEvents() {
        try (RedisStateStore store = open("flat"); RawKeys raw = new RawKeys(server.url())) {
            SessionInfo s = root(store, "s", 1);
            SessionKey k = SessionKey.of(s);
            long epoch = lease(store, k, "w1");
            String events = new Keys("flat").session(k)[1];
            long head = 1;
            for (int i = 0; i < 200; i++) {
                head = store.append(AppendRequest.of(k, head, epoch, StoreFixtures.messages("s", head + 1, 1)));
            }
            List<String> early = raw.redis().lrange(events, 0, 9);
            head = store.append(AppendRequest.of(k, head, epoch, StoreFixtures.messages("s", head + 1, 1)));
            assertThat(raw.redis().llen(events)).isEqualTo(head);
            assertThat(raw.redis().lrange(events, 0, 9)).as("earlier entries are never rewritten").isEqualTo(early);
        }
    }

    /**
     * Regression (issue 24): Redis gave an expiring session's keys a {@code PEXPIRE} and removed them at
     * the expiry itself, even while a turn ran; now retention alone removes a session (after taking its
     * lease), so no key has a TTL.
     */
    @Test
    void anExpiringSessionsKeysHaveNoTtlSoRedisNeverRemovesOneMidTurn() {
        dev.threadline.store.tck.TickingClock clock = new dev.threadline.store.tck.TickingClock(StoreFixtures.T0);
        try (RedisStateStore store = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults()
                .withPrefix("ttl").withClock(clock)); RawKeys raw = new RawKeys(server.url())) {
            SessionInfo info = new SessionInfo("s", "default", "local", dev.threadline.core.session.SessionConfig.DEFAULT,
                    Map.of(), StoreFixtures.T0, StoreFixtures.T0.plus(Duration.ofHours(2)), null, 0);
            store.create(info, List.of(StoreFixtures.first(info)));
            SessionKey key = SessionKey.of(info);
            String[] sessionKeys = new Keys("ttl").session(key);
            long epoch = lease(store, key, "w1");
            store.append(new AppendRequest(key, 1, epoch, StoreFixtures.messages("s", 2, 1), List.of(),
                    new CommandRecord(key, "c1", "submit:x", 2, null)));
            store.saveSnapshot(key, dev.threadline.store.tck.RoundTripFixtures.snapshot(2));
            for (String k : sessionKeys) {
                if (raw.redis().exists(k) == 1) {
                    assertThat(raw.redis().pttl(k)).as("ttl of %s", k).isEqualTo(-1L);
                }
            }
            assertThat(store.expired(StoreFixtures.T0.plus(Duration.ofHours(3)), 10)).containsExactly(key);

        }
    }

    @Test
    void aSessionRemovedBehindTheStoresBackLeavesIndexEntriesThatPruningRemoves() {
        try (RedisStateStore store = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix("gone"));
             RawKeys raw = new RawKeys(server.url())) {
            SessionKey key = SessionKey.of(root(store, "s", 1));
            root(store, "forever", 1);
            raw.redis().del(new Keys("gone").session(key)); // as a PEXPIRE of an older version did
            assertThat(store.list(dev.threadline.core.store.SessionQuery.tenant("default")).items())
                    .extracting(s -> s.info().id()).containsExactly("forever");
            assertThat(store.pruneIndex("default")).isEqualTo(1);
            assertThat(raw.redis().zrange(new Keys("gone").index("default"), 0, -1)).containsExactly("forever");
        }
    }

    @Test
    void aSessionWhoseKeysRedisExpiredIsNotListedAsExpiredAndLeavesNoIndexEntries() {
        dev.threadline.store.tck.TickingClock clock = new dev.threadline.store.tck.TickingClock(StoreFixtures.T0);
        Keys keys = new Keys("exp");
        try (RedisStateStore store = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults()
                .withPrefix("exp").withClock(clock)); RawKeys raw = new RawKeys(server.url())) {
            for (String id : List.of("gone", "kept")) {
                SessionInfo info = new SessionInfo(id, "default", "local", dev.threadline.core.session.SessionConfig.DEFAULT,
                        Map.of(), StoreFixtures.T0, StoreFixtures.T0.plus(Duration.ofHours(1)), null, 0);
                store.create(info, List.of(StoreFixtures.first(info)));
            }
            assertThat(raw.redis().zrange(keys.expiry(), 0, -1)).containsExactly("default gone", "default kept");
            raw.redis().del(keys.session(new SessionKey("default", "gone"))); // as if Redis expired its keys
            clock.advance(Duration.ofHours(2));

            assertThat(store.expired(clock.instant(), 10)).containsExactly(new SessionKey("default", "kept"));
            assertThat(raw.redis().zrange(keys.expiry(), 0, -1)).containsExactly("default kept");
            assertThat(raw.redis().zrange(keys.index("default"), 0, -1)).containsExactly("kept");
            store.delete(new SessionKey("default", "kept"));
            assertThat(raw.redis().exists(keys.expiry(), keys.index("default"))).isZero();
        }
    }

    @Test
    void scriptsAreLoadedAgainWhenTheServerForgotThem() {
        try (RedisStateStore store = open("flush"); RawKeys raw = new RawKeys(server.url())) {
            SessionKey key = SessionKey.of(root(store, "s", 1));
            long epoch = lease(store, key, "w1");
            raw.redis().scriptFlush();
            assertThat(store.append(AppendRequest.of(key, 1, epoch, StoreFixtures.messages("s", 2, 1)))).isEqualTo(2);
            assertThat(store.head(key)).isEqualTo(2);
        }
    }

    @Test
    void bytesWrittenPerStepStayFlatAsTheSessionGrows() throws Exception {
        try (RedisStateStore store = open("bytes")) {
            SessionKey key = SessionKey.of(root(store, "s", 1));
            long epoch = lease(store, key, "w1");
            long head = 1;
            head = appendSteps(store, key, epoch, head, 10);
            long early = aofGrowth(store, key, epoch, head, 20);
            head += 20;
            while (head < 2_000) {
                head = store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("s", head + 1, 100)));
            }
            long late = aofGrowth(store, key, epoch, head, 20);
            assertThat((double) late / early).as("AOF bytes of 20 steps at 2,000 messages vs at 10").isLessThan(1.1);
        }
    }

    private static long appendSteps(RedisStateStore store, SessionKey key, long epoch, long head, int steps) {
        long h = head;
        for (int i = 0; i < steps; i++) {
            h = store.append(AppendRequest.of(key, h, epoch, StoreFixtures.messages("s", h + 1, 1)));
        }
        return h;
    }

    /** How many bytes the AOF grows by while {@code steps} one-message steps are appended. */
    private static long aofGrowth(RedisStateStore store, SessionKey key, long epoch, long head, int steps) throws Exception {
        long before = aofBytes();
        appendSteps(store, key, epoch, head, steps);
        return aofBytes() - before;
    }

    private static long aofBytes() throws java.io.IOException {
        try (var files = java.nio.file.Files.walk(server.dir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".aof")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @Test
    void anUnreachableServerIsOneClearLineAndFast() {
        int port;
        try {
            port = RedisProcess.freePort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> RedisStateStore.open("redis://127.0.0.1:" + port, RedisStateStore.Options.defaults()))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.getMessage()).contains("127.0.0.1:" + port).contains("cannot connect").doesNotContain("\n");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));

        long clusterStart = System.nanoTime();
        assertThatThrownBy(() -> RedisStateStore.openCluster(List.of("127.0.0.1:" + port), null))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.getMessage()).contains("redis-cluster://127.0.0.1:" + port).contains("cannot connect").doesNotContain("\n"));
        assertThat(Duration.ofNanos(System.nanoTime() - clusterStart)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aBadUrlIsOneClearLine() {
        for (String bad : new String[] {"", "http://localhost:6379", "redis-cluster://", "redis-cluster://host-without-port",
                "redis://127.0.0.1:notaport", "redis-cluster://127.0.0.1:7000,,127.0.0.1:7001"}) {
            assertThatThrownBy(() -> RedisStateStore.open(bad, null)).as("url '%s'", bad)
                    .isInstanceOf(InvalidInputException.class)
                    .satisfies(e -> assertThat(e.getMessage()).contains("redisUrl").doesNotContain("\n"));
        }
        assertThat(List.of("redis://h:1", "rediss://h:1", "redis-cluster://h:1,h:2")).allMatch(RedisStateStore::accepts);
        assertThat(List.of("sqlite:x.db", "memory:", "postgresql://h/db", "")).noneMatch(RedisStateStore::accepts);
        assertThatThrownBy(() -> RedisStateStore.open("redis://user:s3cret@127.0.0.1:1", null))
                .isInstanceOf(StorageException.class).message().doesNotContain("s3cret").doesNotContain("\n");
    }
}
