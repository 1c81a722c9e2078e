package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Resealing.Resealed;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.RedisClusterProcesses;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.StoreFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The re-seal on Redis ({@code Resealing.reseal}, ADR 0049) on real servers: a plain store's values, sealed after the
 * fact, read the same and leave no canary in the AOF or the RDB while another tenant's stay plain; a rotation then a
 * re-seal moves every value to the new key and a second pass has nothing left; a value another writer changes between
 * a batch's read and its write keeps that writer's value; a step's pending shared writes young enough to be in use are
 * left to their step; and the same on a cluster, where variables live in other slots than the sessions.
 */
class RedisResealTest {
    static final String CANARY = "canary-reseal-acme-3f09c1";
    static final String OTHER = "canary-reseal-other-77ab20";

    @TempDir
    Path dir;

    private RedisStateStore sealing(String url) throws Exception {
        return RedisStateStore.open(url, RedisStateStore.Options.defaults()
                .withKeys(KeyProviders.keyring(RedisEncryptionTest.keyring(dir, "keyring.json", true, RedisEncryptionTest.KEY_1))));
    }

    private static RedisStateStore plain(String url, Clock clock) {
        return RedisStateStore.open(url, RedisStateStore.Options.defaults().withClock(clock));
    }

    @Test
    void aPlainStoreSealedAfterTheFactReadsTheSameAndItsCanaryLeavesTheAofAndTheRdb() throws Exception {
        try (RedisProcess server = RedisProcess.start(List.of()); SealedBytes bytes = new SealedBytes(server)) {
            Lease lease = fill(server.url(), "acme", CANARY);
            fill(server.url(), "other", OTHER);
            List<Object> before;
            try (RedisStateStore store = plain(server.url(), Clock.systemUTC())) {
                before = reads(store);
            }
            assertThat(bytes.filesWith(CANARY)).as("the plain writes are in the AOF").isNotEmpty();
            try (RedisStateStore store = sealing(server.url())) {
                List<Resealed> progress = new ArrayList<>();
                Resealed done = store.reseal("acme", 3, progress::add);
                assertThat(done.dataKey()).isEqualTo(1);
                assertThat(kinds(bytes, "acme")).as("every kind of payload was there to seal again")
                        .containsOnlyKeys("event", "snapshot", "base", "command", "interrupt", "writes", "variable");
                assertThat(done.resealed()).isEqualTo(done.examined()).isEqualTo(payloads(bytes, "acme").size());
                assertThat(progress).hasSizeGreaterThan(1).last().isEqualTo(done);
                assertThat(reads(store)).isEqualTo(before);
                assertThat(payloads(bytes, "acme")).allSatisfy(v -> assertThat(Arrays.copyOf(v, 5)).isEqualTo(PayloadSealer.prefix(1)));
                assertThat(payloads(bytes, "other")).isNotEmpty().noneMatch(PayloadSealer::isSealed);

                assertThat(bytes.filesWith(CANARY)).as("the AOF's history still holds the plain writes").isNotEmpty();
                assertThat(store.scrub()).as("what threadline keys rotate-data runs last")
                        .contains("append-only file rewritten", "RDB snapshot rewritten");
                assertThat(bytes.filesWith(CANARY)).as("no file holds the sealed tenant's canary").isEmpty();
                assertThat(bytes.filesWith(OTHER)).as("the other tenant's stays plain in both files")
                        .anyMatch(f -> f.endsWith(".rdb")).anyMatch(f -> f.contains(".aof"));

                SessionKey k = new SessionKey("acme", "cmd");
                assertThat(store.takeInterruptRequest(lease)).contains("stop: " + CANARY);
                store.append(new AppendRequest(k, 3, lease.epoch(), List.of(StoreFixtures.user("cmd", 4, "more")), List.of(), null));
                assertThat(store.variables(VariableScope.USER, "acme/ada").get("later"))
                        .as("the pending writes, sealed again, were rolled forward").isEqualTo(TextNode.valueOf("later " + CANARY));
            }
        }
    }

    @Test
    void aRotationThenAResealMovesEveryValueToTheNewKeyAndASecondPassHasNothingLeft() throws Exception {
        try (RedisProcess server = RedisProcess.start(List.of()); SealedBytes bytes = new SealedBytes(server)) {
            fill(server.url(), "acme", CANARY);
            try (RedisStateStore store = sealing(server.url())) {
                store.reseal("acme", 100, r -> { });
                List<Object> before = reads(store);
                int values = payloads(bytes, "acme").size();
                assertThat(store.rotateDataKey("acme")).isEqualTo(2);
                Resealed done = store.reseal("acme", 4, r -> { });
                assertThat(done).isEqualTo(new Resealed("acme", 2, values, values));
                assertThat(payloads(bytes, "acme")).allSatisfy(v -> assertThat(Arrays.copyOf(v, 5)).isEqualTo(PayloadSealer.prefix(2)));
                assertThat(reads(store)).isEqualTo(before);
                List<Resealed> progress = new ArrayList<>();
                assertThat(store.reseal("acme", 4, progress::add)).isEqualTo(new Resealed("acme", 2, 0, 0));
                assertThat(progress).as("no batch, no progress").isEmpty();
                assertThat(store.dataKeys("acme")).hasSize(2);
            }
        }
    }

    @Test
    void aValueAnotherWriterChangesBetweenReadAndWriteKeepsThatWritersValue() throws Exception {
        try (RedisProcess server = RedisProcess.start(List.of()); RawKeys raw = new RawKeys(server.url())) {
            SessionInfo info = StoreFixtures.root("s", "acme", "ada");
            SessionKey k = SessionKey.of(info);
            try (RedisStateStore store = plain(server.url(), Clock.systemUTC())) {
                store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, "hello")));
                Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
                store.append(new AppendRequest(k, 2, lease.epoch(), List.of(StoreFixtures.user("s", 3, "again")),
                        List.of(StoreFixtures.setAppVar("acme", "motto", "\"first\"")), null));
            }
            String wip = Records.encodeWrites(List.of(StoreFixtures.setAppVar("acme", "motto", "\"pending\"")));
            raw.redis().hset("tl:{acme/s}:meta", "wip", wip); // a step applying its writes right now (its update time is fresh)
            try (RedisStateStore store = sealing(server.url())) {
                store.resealer().beforeWrite(slot -> {
                    if (slot.equals("tl:var:{app:acme}")) { // read, sealed again, not written yet
                        raw.redis().hset(slot, "motto", "\"changed\"");
                    }
                });
                Resealed done = store.reseal("acme", 100, r -> { });
                assertThat(done.examined() - done.resealed()).as("the changed variable and the pending writes").isEqualTo(2);
                assertThat(raw.redis().hget("tl:var:{app:acme}", "motto")).as("as the other writer wrote it").isEqualTo("\"changed\"");
                assertThat(raw.redis().hget("tl:{acme/s}:meta", "wip")).as("left to its step").isEqualTo(wip);
                assertThat(store.variables(VariableScope.APP, "acme").get("motto")).isEqualTo(TextNode.valueOf("changed"));
                assertThat(store.readOwn(k, 1, 3)).hasSize(3);

                store.resealer().beforeWrite(null);
                raw.redis().hdel("tl:{acme/s}:meta", "wip"); // its step cleared them
                assertThat(store.reseal("acme", 100, r -> { })).as("the next pass takes the changed value")
                        .isEqualTo(new Resealed("acme", 1, 1, 1));
                assertThat(store.variables(VariableScope.APP, "acme").get("motto")).isEqualTo(TextNode.valueOf("changed"));
            }
        }
    }

    @Test
    void anEventAPruneMovesBetweenReadAndWriteIsWrittenBackAtItsNewPlace() throws Exception {
        try (RedisProcess server = RedisProcess.start(List.of()); RawKeys raw = new RawKeys(server.url());
             SealedBytes bytes = new SealedBytes(server)) {
            SessionInfo info = StoreFixtures.root("s", "acme", "ada");
            SessionKey k = SessionKey.of(info);
            try (RedisStateStore store = plain(server.url(), Clock.systemUTC())) {
                List<dev.threadline.core.event.StoredEvent> events = new ArrayList<>(List.of(StoreFixtures.first(info)));
                events.addAll(StoreFixtures.messages("s", 2, 4));
                store.create(info, events);
            }
            try (RedisStateStore store = sealing(server.url())) {
                List<dev.threadline.core.event.StoredEvent> before = store.readOwn(k, 3, 5);
                store.resealer().beforeWrite(slot -> { // a prune through seq 2 in between: the list's entries move two places
                    raw.redis().ltrim("tl:{acme/s}:ev", 2, -1);
                    raw.redis().hset("tl:{acme/s}:meta", "base", "2");
                });
                assertThat(store.reseal("acme", 10, r -> { })).as("seqs 1 and 2 were gone when written")
                        .isEqualTo(new Resealed("acme", 1, 5, 3));
                assertThat(bytes.redis().lrange(SealedBytes.key("tl:{acme/s}:ev"), 0, -1)).hasSize(3).allMatch(PayloadSealer::isSealed);
                assertThat(store.readOwn(k, 3, 5)).isEqualTo(before);
                store.resealer().beforeWrite(null);
                assertThat(store.reseal("acme", 10, r -> { })).isEqualTo(new Resealed("acme", 1, 0, 0));
            }
        }
    }

    @Test
    void withReplicatedAcksABatchWaitsForTheReplicaAndAStalledOneFailsTheResealWithAnUnknownOutcome() throws Exception {
        try (RedisProcess master = RedisProcess.start(List.of()); RedisProcess replica = RedisProcess.replicaOf(master, List.of())) {
            SessionInfo info = StoreFixtures.root("s", "acme", "ada");
            SessionKey k = SessionKey.of(info);
            try (RedisStateStore store = plain(master.url(), Clock.systemUTC())) {
                store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
            }
            try (RedisStateStore store = sealing(master.url() + "?replicas=1&replicaTimeout=1s")) {
                List<dev.threadline.core.event.StoredEvent> before = store.readOwn(k, 1, 2);
                store.rotateDataKey("acme"); // the data key is written (and acknowledged) before the replica stalls
                replica.pause();
                try {
                    assertThatThrownBy(() -> store.reseal("acme", 10, r -> { })).isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.getMessage()).contains("re-seal the payloads of tenant 'acme'")
                                    .contains("only 0 of 1 replicas confirmed it").contains("outcome is unknown").doesNotContain("\n"));
                } finally {
                    replica.resume();
                }
                assertThat(store.reseal("acme", 10, r -> { })).as("the batch is on the master").isEqualTo(new Resealed("acme", 1, 0, 0));
                replica.awaitCaughtUpWith(master);
                try (RedisStateStore onReplica = sealing(replica.url())) {
                    assertThat(onReplica.readOwn(k, 1, 2)).isEqualTo(before);
                }
                try (RedisStateStore onReplica = plain(replica.url(), Clock.systemUTC())) {
                    assertThatThrownBy(() -> onReplica.readOwn(k, 2, 2)).isInstanceOf(StorageException.class).hasMessageContaining("is sealed");
                }
            }
        }
    }

    @Test
    void aBatchBelowOneIsRefusedNamingItAndAStoreWithoutKeysRefusesToReseal() throws Exception {
        try (RedisProcess server = RedisProcess.start(List.of())) {
            try (RedisStateStore store = sealing(server.url())) {
                assertThatThrownBy(() -> store.reseal("acme", 0, r -> { })).isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("batch");
            }
            try (RedisStateStore store = plain(server.url(), Clock.systemUTC())) {
                assertThatThrownBy(() -> store.reseal("acme", 10, r -> { })).isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("?keys=");
            }
        }
    }

    @Test
    void onAClusterEverySlotsValuesAreSealedAgain() throws Exception {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start()) {
            SessionInfo info = StoreFixtures.root("s", "acme", "ada");
            SessionKey k = SessionKey.of(info);
            try (RedisStateStore store = plain(cluster.url(), Clock.systemUTC())) {
                store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
                Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
                store.append(new AppendRequest(k, 2, lease.epoch(), List.of(StoreFixtures.user("s", 3, CANARY)),
                        List.of(StoreFixtures.setAppVar("acme", "motto", "\"app\""), StoreFixtures.setUserVar("acme", "ada", "fact", "\"user\"")),
                        new CommandRecord(k, "c-1", "fp", 3, "result " + CANARY)));
            }
            try (RedisStateStore store = sealing(cluster.url())) {
                List<Object> before = List.of(store.readOwn(k, 1, 3), store.command(k, "c-1"),
                        store.variables(VariableScope.APP, "acme"), store.variables(VariableScope.USER, "acme/ada"));
                assertThat(store.reseal("acme", 2, r -> { })).as("3 events, a command result, 2 variables")
                        .isEqualTo(new Resealed("acme", 1, 6, 6));
                assertThat(List.of(store.readOwn(k, 1, 3), store.command(k, "c-1"),
                        store.variables(VariableScope.APP, "acme"), store.variables(VariableScope.USER, "acme/ada"))).isEqualTo(before);
                assertThat(store.reseal("acme", 2, r -> { })).isEqualTo(new Resealed("acme", 1, 0, 0));
            }
            try (RedisStateStore store = plain(cluster.url(), Clock.systemUTC())) {
                for (Runnable sealed : List.<Runnable>of(() -> store.readOwn(k, 1, 1), () -> store.command(k, "c-1"),
                        () -> store.variables(VariableScope.APP, "acme"), () -> store.variables(VariableScope.USER, "acme/ada"))) {
                    assertThatThrownBy(sealed::run).isInstanceOf(StorageException.class).hasMessageContaining("is sealed");
                }
            }
        }
    }

    /**
     * Writes {@code canary} into a tenant's messages (and so snapshots), session, user and app variables, a pruned
     * session's base, a command result, an interrupt reason left untaken and a step's pending shared writes whose
     * writer died two minutes ago, through a plain store; returns the lease the interrupt was requested for.
     */
    private static Lease fill(String url, String tenant, String canary) {
        RedisStateStore store = plain(url, Clock.systemUTC());
        try (Threadline tl = Threadline.builder().store(store).model(ScriptedModel.demo()).snapshotEvery(4).build()) {
            Tenant t = tl.tenant(tenant);
            for (int i = 0; i < 2; i++) {
                Session s = t.create(new NewSession("ada-" + i, "ada", SessionConfig.DEFAULT, Map.of(), null));
                for (int turn = 0; turn < 6; turn++) {
                    s.submit("turn " + turn + " says " + canary);
                }
                s.edit("test", "remember", List.of(new Edit.SetVariable(VariableScope.USER, "fact", TextNode.valueOf(canary)),
                        new Edit.SetVariable(VariableScope.APP, "motto", TextNode.valueOf(canary)),
                        new Edit.SetVariable(VariableScope.SESSION, "own", TextNode.valueOf(canary))));
            }
            assertThat(tl.lifecycle().prune(tenant, "ada-0", PrunePolicy.keepLatest(2)).pruned()).isTrue();
        } finally {
            store.close();
        }
        Clock past = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-2)); // the step's writer died two minutes ago
        try (RedisStateStore old = plain(url, past); RawKeys raw = new RawKeys(url)) {
            SessionKey k = new SessionKey(tenant, "cmd");
            SessionInfo info = StoreFixtures.root("cmd", tenant, "ada");
            old.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("cmd", 2, "asks " + canary)));
            Lease lease = ((LeaseResult.Acquired) old.acquire(k, "me", Duration.ofHours(1), null)).lease();
            old.append(new AppendRequest(k, 2, lease.epoch(), List.of(StoreFixtures.assistant("cmd", 3, "ok")), List.of(),
                    new CommandRecord(k, "c-1", "fp", 3, "{\"answer\": \"" + canary + "\"}")));
            assertThat(old.requestInterrupt(k, lease.epoch(), "stop: " + canary)).isTrue();
            raw.redis().hset("tl:{" + tenant + "/cmd}:meta", "wip",
                    Records.encodeWrites(List.of(StoreFixtures.setUserVar(tenant, "ada", "later", "\"later " + canary + "\""))));
            return lease;
        }
    }

    /** What a reader sees of tenant acme (and of tenant other when it has sessions). */
    private static List<Object> reads(RedisStateStore store) {
        List<Object> out = new ArrayList<>();
        for (String tenant : List.of("acme", "other")) {
            for (String id : List.of("ada-0", "ada-1", "cmd")) {
                SessionKey k = new SessionKey(tenant, id);
                if (store.session(k).isEmpty()) {
                    continue;
                }
                Optional<HistoryBase> base = store.historyBase(k);
                out.add(store.readOwn(k, base.map(b -> b.seq() + 1).orElse(1L), store.head(k)));
                out.add(base);
                out.add(store.latestSnapshot(k, Long.MAX_VALUE));
                out.add(store.command(k, "c-1"));
            }
            out.add(store.variables(VariableScope.USER, tenant + "/ada"));
            out.add(store.variables(VariableScope.APP, tenant));
        }
        return out;
    }

    /**
     * Every stored value of {@code tenant} that holds a payload: events, snapshots, bases, command records with a
     * result, interrupt reasons, pending shared writes and user and app variables.
     */
    private static List<byte[]> payloads(SealedBytes bytes, String tenant) {
        return kinds(bytes, tenant).values().stream().flatMap(List::stream).toList();
    }

    /** {@link #payloads}, by kind. */
    private static Map<String, List<byte[]>> kinds(SealedBytes bytes, String tenant) {
        Map<String, List<byte[]>> out = new java.util.TreeMap<>();
        List<byte[]> keys = new ArrayList<>(bytes.redis().keys("tl:{" + tenant + "/*"));
        keys.addAll(bytes.redis().keys("tl:var:{*:" + tenant + "*"));
        for (byte[] k : keys) {
            String name = new String(k, StandardCharsets.UTF_8);
            switch (name.substring(name.lastIndexOf(':') + 1)) {
                case "ev" -> add(out, "event", bytes.redis().lrange(k, 0, -1));
                case "snap" -> add(out, "snapshot", bytes.redis().hgetall(k).values());
                case "hbase" -> add(out, "base", List.of(bytes.redis().hget(k, SealedBytes.key("payload"))));
                case "cmd" -> add(out, "command", bytes.redis().hgetall(k).values().stream()
                        .filter(v -> PayloadSealer.isSealed(v) || new String(v, StandardCharsets.UTF_8).contains("\"r\"")).toList());
                case "meta" -> {
                    for (String f : List.of("ireason", "wip")) {
                        byte[] v = bytes.redis().hget(k, SealedBytes.key(f));
                        if (v != null) {
                            add(out, f.equals("wip") ? "writes" : "interrupt", List.of(v));
                        }
                    }
                }
                default -> {
                    if (name.contains(":var:")) {
                        add(out, "variable", bytes.redis().hgetall(k).values());
                    }
                }
            }
        }
        return out;
    }

    private static void add(Map<String, List<byte[]>> out, String kind, java.util.Collection<byte[]> values) {
        if (!values.isEmpty()) {
            out.computeIfAbsent(kind, x -> new ArrayList<>()).addAll(values);
        }
    }
}
