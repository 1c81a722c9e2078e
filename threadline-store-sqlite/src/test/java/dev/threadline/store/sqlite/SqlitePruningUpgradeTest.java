package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.PruneResult;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A version 8 file gains the {@code history_bases} table when it is opened (schema 9, ADR 0045), and its sessions prune. */
class SqlitePruningUpgradeTest {
    @TempDir
    Path dir;

    @Test
    void aVersion8FileGainsTheBasesTableAndItsSessionsPrune() throws Exception {
        Path file = dir.resolve("v8.db");
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(file)).model(ScriptedModel.demo()).build()) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
            for (int i = 0; i < 8; i++) {
                s.submit("turn " + i);
            }
        }
        OldSchemaFixtures.downgradeToV8(file);
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE name = 'history_bases'")).isZero();
        }

        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(file)).model(ScriptedModel.demo()).build()) {
            PruneResult r = tl.lifecycle().prune("default", "s", PrunePolicy.keepLatest(2));
            assertThat(r.pruned()).isTrue();
            assertThat(tl.defaultTenant().open("s").submit("after the upgrade").reply()).isNotBlank();
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION).isEqualTo(10);
            assertThat(raw.queryLong("SELECT count(*) FROM history_bases")).isEqualTo(1);
            assertThat(raw.queryLong("SELECT count(*) FROM data_keys")).as("version 10's table, made by the same upgrade").isZero();
        }
    }
}
