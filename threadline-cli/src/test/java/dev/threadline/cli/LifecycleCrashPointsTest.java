package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 5, the data-lifecycle crash points, on SQLite (and PostgreSQL and Redis with
 * {@code -Dthreadline.crashBackends=all}), in real
 * {@code threadline} processes: a {@code sessions sweep} halted midway ({@code sweep.mid-batch}) and an
 * {@code erase} halted before its receipt ({@code erase.before-receipt}). After each halt every session
 * is either wholly gone or wholly there (its journal reads and is the one it was), the sessions the
 * command must not touch are byte-identical, and running the command again finishes the work: the
 * sweep removes exactly the rest of the expired sessions, the erasure removes the rest and keeps a
 * receipt.
 */
class LifecycleCrashPointsTest {
    private static final int EXPIRED = 12;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void haltedSweepsAndErasuresLeaveWholeSessionsAndFinishWhenRunAgain() {
        Map<String, String> stores = new LinkedHashMap<>();
        stores.put("sqlite", "sqlite:" + dir.resolve("crash.db"));
        if (!allBackends()) {
            stores.forEach((name, url) -> {
                sweepHaltedMidway(name, url);
                erasureHaltedBeforeItsReceipt(name, url);
            });
            return;
        }
        PgServer.shared().createDatabase("lifecycle_crash");
        try (RedisProcess redis = RedisProcess.start(List.of())) {
            stores.put("postgres", PgServer.shared().url("lifecycle_crash"));
            stores.put("redis", redis.url());
            stores.forEach((name, url) -> {
                sweepHaltedMidway(name, url);
                erasureHaltedBeforeItsReceipt(name, url);
            });
        }
    }

    private void sweepHaltedMidway(String backend, String url) {
        List<String> expired = new ArrayList<>();
        try (Threadline tl = runtime(url)) {
            Tenant t = tl.tenant("sweep");
            for (int i = 0; i < EXPIRED; i++) {
                t.create(new NewSession("old-" + i, "u", SessionConfig.DEFAULT, Map.of(), Duration.ofMillis(1))).submit("hello " + i);
                expired.add("old-" + i);
            }
            t.create(new NewSession("kept", "u", SessionConfig.DEFAULT, Map.of(), NewSession.FOREVER)).submit("keep me");
        }
        Map<String, List<StoredEvent>> before = journals(url, "sweep", all(expired, "kept"));
        CliChild armed = new CliChild(dir, "-D" + CrashPoint.PROPERTY + "=" + CrashPoint.SWEEP_MID_BATCH.wireName() + "@5");
        CliTest.Run halted = armed.run("sessions", "sweep", "--store", url);
        assertThat(halted.code()).as(backend + ": " + halted.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(halted.err()).contains("crash point sweep.mid-batch reached");

        Map<String, List<StoredEvent>> after = journals(url, "sweep", all(expired, "kept"));
        long gone = expired.stream().filter(id -> after.get(id) == null).count();
        assertThat(gone).as(backend + ": sessions the halted sweep removed").isEqualTo(5);
        after.forEach((id, journal) -> {
            if (journal != null) {
                assertThat(journal).as(backend + ": " + id + " is whole after the halt").isEqualTo(before.get(id));
            }
        });

        CliTest.Run again = new CliChild(dir).run("sessions", "sweep", "--store", url);
        assertThat(again.code()).as(backend + ": " + again.err()).isZero();
        Map<String, List<StoredEvent>> last = journals(url, "sweep", all(expired, "kept"));
        assertThat(expired).as(backend + ": every expired session is gone after the second pass")
                .allMatch(id -> last.get(id) == null);
        assertThat(last.get("kept")).as(backend + ": the unexpired session is untouched").isEqualTo(before.get("kept"));
    }

    private void erasureHaltedBeforeItsReceipt(String backend, String url) {
        try (Threadline tl = runtime(url)) {
            Tenant t = tl.tenant("erase");
            for (int i = 0; i < 4; i++) {
                t.create(new NewSession("ada-" + i, "ada", SessionConfig.DEFAULT, Map.of(), NewSession.FOREVER)).submit("ada " + i);
            }
            t.create(new NewSession("bob-1", "bob", SessionConfig.DEFAULT, Map.of(), NewSession.FOREVER)).submit("bob");
        }
        List<String> ids = List.of("ada-0", "ada-1", "ada-2", "ada-3", "bob-1");
        Map<String, List<StoredEvent>> before = journals(url, "erase", ids);
        CliChild armed = new CliChild(dir, "-D" + CrashPoint.PROPERTY + "=" + CrashPoint.ERASE_BEFORE_RECEIPT.wireName());
        CliTest.Run halted = armed.run("erase", "--store", url, "--tenant", "erase", "--user", "ada", "--by", "dpo");
        assertThat(halted.code()).as(backend + ": " + halted.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(journals(url, "erase", List.of("bob-1"))).as(backend + ": another user's session is untouched")
                .isEqualTo(Map.of("bob-1", before.get("bob-1")));

        CliTest.Run again = new CliChild(dir).run("erase", "--store", url, "--tenant", "erase", "--user", "ada", "--by", "dpo");
        assertThat(again.code()).as(backend + ": the erasure run again: " + again.err()).isZero();
        assertThat(again.out()).contains("\"tenant\"");
        Map<String, List<StoredEvent>> last = journals(url, "erase", ids);
        assertThat(ids.subList(0, 4)).as(backend + ": ada's sessions are gone").allMatch(id -> last.get(id) == null);
        assertThat(last.get("bob-1")).isEqualTo(before.get("bob-1"));
        try (Threadline tl = runtime(url)) {
            assertThat(tl.lifecycle().receipts("erase")).as(backend + ": the erasure run again keeps a receipt").hasSize(1);
        }
    }

    /**
     * Whether to run on PostgreSQL and Redis too: {@code -Dthreadline.crashBackends=all} (the acceptance
     * run, docs/reliability.md); the default suite runs SQLite, since each backend costs eight CLI processes.
     */
    static boolean allBackends() {
        return "all".equals(System.getProperty("threadline.crashBackends"));
    }

    private static Threadline runtime(String url) {
        return Threadline.builder().store(StateStores.open(url)).model(ScriptedModel.demo()).build();
    }

    /** Each session's whole journal, or null for one the store no longer has. */
    private static Map<String, List<StoredEvent>> journals(String url, String tenant, List<String> ids) {
        Map<String, List<StoredEvent>> out = new LinkedHashMap<>();
        try (Threadline tl = runtime(url)) {
            Tenant t = tl.tenant(tenant);
            for (String id : ids) {
                out.put(id, t.find(id).map(s -> s.history().journal()).orElse(null));
            }
        }
        return out;
    }

    private static List<String> all(List<String> ids, String more) {
        List<String> out = new ArrayList<>(ids);
        out.add(more);
        return out;
    }
}
