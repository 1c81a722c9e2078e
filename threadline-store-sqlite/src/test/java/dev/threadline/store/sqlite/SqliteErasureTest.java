package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An erasure on SQLite leaves no byte of what it erased in the database file or its write-ahead log:
 * a canary text in one user's messages, variables and metadata, across forks, is found in the files
 * before and in none of them after, while another user's canary, kept, is still there.
 */
class SqliteErasureTest {
    private static final String ERASED = "canary-erased-5e1f0c";
    private static final String KEPT = "canary-kept-9b27d4";

    @TempDir
    Path dir;

    @Test
    void theErasedUsersCanaryIsInNeitherTheFileNorItsWalWhileTheOthersIs() throws IOException {
        Path db = dir.resolve("store.db");
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).model(ScriptedModel.demo()).snapshotEvery(4).build()) {
            Tenant acme = tl.tenant("acme");
            for (int i = 0; i < 5; i++) {
                fill(acme, "ada-" + i, "ada", ERASED);
                fill(acme, "bob-" + i, "bob", KEPT);
            }
            acme.open("ada-0").fork(2, "ada-0-fork").submit("more of " + ERASED);
            assertThat(occurrences(ERASED)).as("before: the canary is on disk").isPositive();

            ErasureReceipt r = tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo");

            assertThat(r.sessions()).isEqualTo(6);
            assertThat(r.scrub()).contains("truncated").doesNotContain("NOT");
            assertThat(occurrences(ERASED)).as("after: in no file of the store").isZero();
            assertThat(occurrences(KEPT)).as("the other user's data stays").isPositive();
            assertThat(acme.open("bob-3").state().messages()).isNotEmpty();
        }
        assertThat(occurrences(ERASED)).as("nor after the store is closed").isZero();
    }

    @Test
    void aPrunedSessionsBaseGoesWithItsErasure() throws IOException {
        Path db = dir.resolve("store.db");
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).model(ScriptedModel.demo()).build()) {
            Tenant acme = tl.tenant("acme");
            fill(acme, "ada-0", "ada", ERASED);
            fill(acme, "bob-0", "bob", KEPT);
            assertThat(tl.lifecycle().prune("acme", "ada-0", PrunePolicy.keepLatest(2)).pruned()).isTrue();
            assertThat(tl.lifecycle().prune("acme", "bob-0", PrunePolicy.keepLatest(2)).pruned()).isTrue();
            assertThat(occurrences(ERASED)).as("before: the canary is in the base").isPositive();

            tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo");

            assertThat(occurrences(ERASED)).as("after: in no file of the store").isZero();
            assertThat(occurrences(KEPT)).isPositive();
            assertThat(acme.open("bob-0").state().messages()).isNotEmpty();
        }
    }

    private static void fill(Tenant t, String id, String user, String canary) {
        Session s = t.create(new NewSession(id, user, SessionConfig.DEFAULT, Map.of("note", canary), null));
        for (int i = 0; i < 6; i++) {
            s.submit("turn " + i + " says " + canary + " " + "x".repeat(200 * i));
        }
        s.edit("test", "remember", List.of(new Edit.SetVariable(VariableScope.USER, "fact", TextNode.valueOf(canary)),
                new Edit.SetVariable(VariableScope.SESSION, "own", TextNode.valueOf(canary))));
    }

    /** How many times the canary's bytes appear in the store's files (the database, its WAL, its shm). */
    private int occurrences(String canary) throws IOException {
        return CanaryScan.occurrences(dir, canary);
    }
}
