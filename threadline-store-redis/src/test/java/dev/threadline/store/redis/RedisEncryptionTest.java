package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
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
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Encryption at rest on Redis (ADR 0049), what is kept: a canary written everywhere a payload goes (messages,
 * snapshots, a pruned session's base, user, app and session variables, a step's pending shared writes, a command
 * result, an interrupt reason) is in neither the RDB nor the append-only file (its whole history, then rewritten) of
 * an encrypted server, and is in both of a plain server's, so the scan can fail; and every such value as stored is sealed. The refusals and shredding: {@link RedisEncryptionKeysTest}.
 */
class RedisEncryptionTest {
    static final String CANARY = "canary-redis-sealed-5b7d20";
    static final String KEY_1 = key('1');
    static final String KEY_2 = key('2');

    @TempDir
    Path dir;

    static String key(char c) {
        return Base64.getEncoder().encodeToString(String.valueOf(c).repeat(32).getBytes(StandardCharsets.US_ASCII));
    }

    /** A keyring file: {@code acme} under {@code acme-1} (when {@code withAcme}), every other tenant under {@code all-1}. */
    static Path keyring(Path dir, String name, boolean withAcme, String acmeKey) throws IOException {
        String acme = withAcme ? "\"acme\": {\"active\": \"acme-1\", \"keys\": {\"acme-1\": \"" + acmeKey + "\"}}," : "";
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"tenants\": {" + acme + " \"*\": {\"active\": \"all-1\", \"keys\": {\"all-1\": \"" + KEY_2 + "\"}}}}");
        return f;
    }

    static RedisStateStore open(RedisProcess server, KeyProvider keys) {
        return RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withKeys(keys));
    }

    @Test
    void theCanaryIsInNeitherTheRdbNorTheAofOfAnEncryptedServerWhileAPlainOnesHoldIt() throws Exception {
        try (RedisProcess plain = RedisProcess.start(List.of()); RedisProcess sealed = RedisProcess.start(List.of());
             SealedBytes plainBytes = new SealedBytes(plain); SealedBytes sealedBytes = new SealedBytes(sealed)) {
            fillEverything(plain, null);
            fillEverything(sealed, KeyProviders.keyring(keyring(dir, "keyring.json", true, KEY_1)));
            for (boolean rewritten : List.of(false, true)) { // the AOF's whole history first (values since deleted), then rewritten
                for (SealedBytes b : List.of(plainBytes, sealedBytes)) {
                    if (rewritten) {
                        b.rewriteAof();
                    } else {
                        b.save();
                    }
                }
                assertThat(plainBytes.filesWith(CANARY)).as("the plain server's RDB and AOF hold the canary, so the scan can find it")
                        .anyMatch(f -> f.endsWith(".rdb")).anyMatch(f -> f.contains(".aof"));
                assertThat(sealedBytes.files()).as("the encrypted server has both files to scan")
                        .anyMatch(f -> f.endsWith(".rdb")).anyMatch(f -> f.contains(".aof"));
                assertThat(sealedBytes.filesWith(CANARY)).as("no file of the encrypted server holds a byte of it (AOF rewritten: "
                        + rewritten + ")").isEmpty();
            }

            Map<String, int[]> kinds = sealedValues(sealedBytes);
            assertThat(kinds.keySet()).containsExactlyInAnyOrder("event", "snapshot", "base", "variable", "command", "interrupt");
            kinds.forEach((kind, counts) -> {
                assertThat(counts[0]).as(kind + " values").isPositive();
                assertThat(counts[1]).as("sealed " + kind + " values of " + counts[0]).isEqualTo(counts[0]);
            });
            assertThat(sealedValues(plainBytes).get("event")[1]).as("a plain server's events are plain").isZero();
        }
    }

    /** Per kind of payload, how many values the server holds and how many of them start with the seal's mark. */
    private static Map<String, int[]> sealedValues(SealedBytes bytes) {
        Map<String, int[]> out = new TreeMap<>();
        for (byte[] k : bytes.redis().keys("tl:*")) {
            String name = new String(k, StandardCharsets.UTF_8);
            List<byte[]> values = switch (name.substring(name.lastIndexOf(':') + 1)) {
                case "ev" -> count(out, "event", bytes.redis().lrange(k, 0, -1));
                case "snap" -> count(out, "snapshot", List.copyOf(bytes.redis().hgetall(k).values()));
                case "hbase" -> count(out, "base", List.of(bytes.redis().hget(k, SealedBytes.key("payload"))));
                case "cmd" -> count(out, "command", bytes.redis().hgetall(k).entrySet().stream()
                        .filter(e -> new String(e.getKey(), StandardCharsets.UTF_8).equals("c-1")).map(Map.Entry::getValue).toList());
                case "meta" -> {
                    byte[] reason = bytes.redis().hget(k, SealedBytes.key("ireason"));
                    yield reason == null ? List.of() : count(out, "interrupt", List.of(reason));
                }
                default -> name.contains(":var:") ? count(out, "variable", List.copyOf(bytes.redis().hgetall(k).values())) : List.of();
            };
            assertThat(values).isNotNull();
        }
        return out;
    }

    private static List<byte[]> count(Map<String, int[]> out, String kind, List<byte[]> values) {
        int[] c = out.computeIfAbsent(kind, x -> new int[2]);
        for (byte[] v : values) {
            c[0]++;
            c[1] += v.length > 0 && v[0] == (byte) 0xF1 ? 1 : 0;
        }
        return values;
    }

    /**
     * Writes the canary into messages (and so snapshots), session, user and app variables, a pruned history's
     * base, a command result and an interrupt reason left untaken; reads it all back, and finds it by search.
     */
    private static void fillEverything(RedisProcess server, KeyProvider keys) {
        RedisStateStore store = open(server, keys);
        try (Threadline tl = Threadline.builder().store(store).model(ScriptedModel.demo()).snapshotEvery(4).build()) {
            Tenant acme = tl.tenant("acme");
            for (int i = 0; i < 2; i++) {
                Session s = acme.create(new NewSession("ada-" + i, "ada", SessionConfig.DEFAULT, Map.of(), null));
                for (int t = 0; t < 10; t++) {
                    s.submit("turn " + t + " says " + CANARY);
                }
                s.edit("test", "remember", List.of(new Edit.SetVariable(VariableScope.USER, "fact", TextNode.valueOf(CANARY)),
                        new Edit.SetVariable(VariableScope.APP, "motto", TextNode.valueOf(CANARY)),
                        new Edit.SetVariable(VariableScope.SESSION, "own", TextNode.valueOf(CANARY))));
            }
            assertThat(tl.lifecycle().prune("acme", "ada-0", PrunePolicy.keepLatest(2)).pruned()).isTrue();
            assertThat(acme.open("ada-0").state().messages().toString()).contains(CANARY);
            assertThat(acme.open("ada-1").state().messages().toString()).contains(CANARY);
            assertThat(store.variables(VariableScope.USER, "acme/ada").toString()).contains(CANARY);
            assertThat(store.historyBase(new SessionKey("acme", "ada-0"))).isPresent();
            assertThat(store.latestSnapshot(new SessionKey("acme", "ada-1"), Long.MAX_VALUE)).isPresent();

            SessionKey k = new SessionKey("acme", "cmd");
            SessionInfo info = StoreFixtures.root("cmd", "acme", "ada");
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("cmd", 2, "asks " + CANARY)));
            Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
            store.append(new AppendRequest(k, 2, lease.epoch(), List.of(StoreFixtures.assistant("cmd", 3, "ok")), List.of(),
                    new CommandRecord(k, "c-1", "fp", 3, "{\"answer\": \"" + CANARY + "\"}")));
            assertThat(store.requestInterrupt(k, lease.epoch(), "stop: " + CANARY)).isTrue();
            assertThat(store.command(k, "c-1").orElseThrow().result()).contains(CANARY);
            assertThat(store.search(List.of(new SearchRange(k, 1, 3)), CANARY, 5)).as("search opens sealed events").isNotEmpty();
        }
    }
}
