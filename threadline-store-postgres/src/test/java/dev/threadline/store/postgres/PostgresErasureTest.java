package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.harness.servers.PgServer;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 24's erasure acceptance on PostgreSQL: a canary text in one user's messages, variables and
 * metadata, across forks, is in the server's data directory (tables and write-ahead log) before; after
 * the erasure and the store's scrub it is in neither the data directory nor a {@code pg_dump}, while
 * another user's canary is still in both. A server of its own with {@code wal_recycle=off}, as
 * docs/storage.md recommends for stores that erase.
 */
class PostgresErasureTest {
    private static final String ERASED = "canary-pg-erased-71d0";
    private static final String KEPT = "canary-pg-kept-2c88";
    private static PgServer server;

    @BeforeAll
    static void start() {
        server = PgServer.create(List.of("wal_recycle=off", "autovacuum=off"));
        server.createDatabase("erasure");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theErasedUsersCanaryIsInNeitherTheDataDirectoryNorADumpWhileTheOthersIs() throws Exception {
        try (Threadline tl = Threadline.builder().store(PostgresStateStore.open(server.url("erasure")))
                .model(ScriptedModel.demo()).snapshotEvery(4).build()) {
            Tenant acme = tl.tenant("acme");
            for (int i = 0; i < 4; i++) {
                fill(acme, "ada-" + i, "ada", ERASED);
                fill(acme, "bob-" + i, "bob", KEPT);
            }
            acme.open("ada-0").fork(2, "ada-0-fork").submit("more of " + ERASED);
            checkpoint();
            assertThat(inDataDirectory(ERASED)).as("before: the canary is on disk").isTrue();

            ErasureReceipt r = tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo");

            assertThat(r.sessions()).isEqualTo(5);
            assertThat(r.complete()).isTrue();
            assertThat(r.scrub()).contains("tables rewritten").contains("checkpointed").doesNotContain("NOT");
            assertThat(inDataDirectory(ERASED)).as("after: in no file of the data directory").isFalse();
            assertThat(inDataDirectory(KEPT)).as("the other user's data stays").isTrue();
            String dump = pgDump();
            assertThat(dump).doesNotContain(ERASED).contains(KEPT);
            assertThat(acme.open("bob-3").state().messages()).isNotEmpty();
            acme.open("bob-3").submit("still working after the scrub");
        }
    }

    private static void fill(Tenant t, String id, String user, String canary) {
        Session s = t.create(new NewSession(id, user, SessionConfig.DEFAULT, Map.of("note", canary), null));
        for (int i = 0; i < 6; i++) {
            s.submit("turn " + i + " says " + canary + " " + "x".repeat(300 * i)); // long enough for TOAST at the end
        }
        s.edit("test", "remember", List.of(new Edit.SetVariable(VariableScope.USER, "fact", TextNode.valueOf(canary)),
                new Edit.SetVariable(VariableScope.SESSION, "own", TextNode.valueOf(canary))));
    }

    /** Writes the shared buffers out, so the bytes "before" are in the table files, not only in memory and the WAL. */
    private static void checkpoint() throws Exception {
        try (var c = server.connect("erasure"); var s = c.createStatement()) {
            s.execute("CHECKPOINT");
        }
    }

    private static boolean inDataDirectory(String canary) throws IOException {
        return PgCanaryScan.inDataDirectory(server, canary);
    }

    private static String pgDump() throws Exception {
        return PgCanaryScan.pgDump(server, "erasure");
    }
}
