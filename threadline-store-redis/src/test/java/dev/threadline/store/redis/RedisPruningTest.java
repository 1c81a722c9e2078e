package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.RoundTripFixtures;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the pruning contract cannot see from outside on Redis (ADR 0045): a refused prune leaves every key as it
 * was, the base is kept in the session's {@code hbase} hash in the JDBC stores' record form, the events list holds
 * exactly the seqs after it, a link to a gone branch does not hold a prune back, and a delete takes the base with
 * the session. On a real throwaway server.
 */
class RedisPruningTest {
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

    private static SessionInfo root(RedisStateStore store, String id, int length) {
        SessionInfo info = StoreFixtures.root(id);
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(id, 2, length - 1));
        store.create(info, events);
        return info;
    }

    private static HistoryBase base(long seq) {
        StateSnapshot snap = RoundTripFixtures.snapshot(seq);
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < snap.messageCount(); i++) {
            messages.add(i % 2 == 0 ? Message.user("question " + i) : Message.assistantText("answer " + i));
        }
        return new HistoryBase(seq, "keep the latest 3 checkpoints", Instant.parse("2026-12-07T10:15:30Z"), snap, messages);
    }

    @Test
    void refusedPrunesLeaveEveryKeyAsItWasAndAPruneKeepsTheBaseInTheRecordForm() {
        try (RedisStateStore store = open("prune"); RawKeys raw = new RawKeys(server.url())) {
            SessionInfo s = root(store, "s", 30);
            SessionKey k = SessionKey.of(s);
            SessionInfo fork = StoreFixtures.branch(s, "fork", 12);
            store.create(fork, List.of(StoreFixtures.first(fork)));
            store.saveSnapshot(k, RoundTripFixtures.snapshot(8));
            store.saveSnapshot(k, RoundTripFixtures.snapshot(20));
            Map<String, String> before = raw.under("prune");

            List<Runnable> refused = List.of(() -> store.prune(k, base(30)), () -> store.prune(k, base(13)),
                    () -> store.prune(SessionKey.of(fork), base(12)));
            for (int i = 0; i < refused.size(); i++) {
                assertThatThrownBy(refused.get(i)::run).as("refusal %d", i).isInstanceOf(InvalidInputException.class);
                assertThat(raw.under("prune")).as("keys after refusal %d", i).isEqualTo(before);
            }

            HistoryBase b = base(12);
            store.prune(k, b);
            String[] keys = new Keys("prune").session(k);
            assertThat(raw.redis().hgetall(keys[Keys.HBASE])).isEqualTo(Map.of("seq", "12",
                    "v", Integer.toString(RecordCodec.VERSION), "payload", RecordCodec.encodeBase(b)));
            assertThat(raw.redis().hget(keys[Keys.META], "base")).isEqualTo("12");
            assertThat(raw.redis().llen(keys[Keys.EVENTS])).isEqualTo(18);
            assertThat(raw.redis().lindex(keys[Keys.EVENTS], 0)).startsWith("[" + RecordCodec.VERSION + ",13,");
            assertThat(raw.redis().zrange(keys[3], 0, -1)).containsExactly("20");
            assertThat(raw.redis().hkeys(keys[4])).containsExactly("20");
            assertThat(store.readOwn(SessionKey.of(fork), 13, 13)).hasSize(1);
        }
    }

    @Test
    void aLinkToAGoneBranchDoesNotHoldAPruneBackAndADeleteTakesTheBase() {
        try (RedisStateStore store = open("gone"); RawKeys raw = new RawKeys(server.url())) {
            SessionKey k = SessionKey.of(root(store, "s", 30));
            String[] keys = new Keys("gone").session(k);
            raw.redis().hset(keys[Keys.KIDS], "ghost", "a-token-of-a-deleted-branch"); // as a delete that died before unlinking
            store.prune(k, base(20));
            assertThat(store.historyBase(k)).contains(base(20));

            store.delete(k);
            assertThat(raw.redis().exists(keys)).isZero();
            root(store, "s", 3);
            assertThat(store.historyBase(k)).isEmpty();
            assertThat(store.readOwn(k, 1, 30)).hasSize(3);
        }
    }
}
