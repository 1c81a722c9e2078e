package dev.threadline.store.redis;

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
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.Resp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 24's erasure acceptance on Redis: a canary text in one user's messages, variables and metadata,
 * across forks, is in the server's append-only file and its RDB snapshot before; after the erasure and
 * the store's scrub it is in neither, while another user's canary is still in both.
 */
class RedisErasureTest {
    private static final String ERASED = "canary-redis-erased-a41c";
    private static final String KEPT = "canary-redis-kept-0e97";
    private RedisProcess server;

    @BeforeEach
    void start() {
        server = RedisProcess.start(List.of("--save", "3600 1"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theErasedUsersCanaryIsInNeitherTheAofNorTheRdbWhileTheOthersIs() throws Exception {
        try (Threadline tl = Threadline.builder().store(RedisStateStore.open(server.url(), RedisStateStore.Options.defaults())).model(ScriptedModel.demo())
                .snapshotEvery(4).build()) {
            Tenant acme = tl.tenant("acme");
            for (int i = 0; i < 4; i++) {
                fill(acme, "ada-" + i, "ada", ERASED);
                fill(acme, "bob-" + i, "bob", KEPT);
            }
            acme.open("ada-0").fork(2, "ada-0-fork").submit("more of " + ERASED);
            assertThat(Resp.call(server.port(), "SAVE")).isEqualTo("OK");
            assertThat(filesWith(ERASED)).as("before: in the AOF and the RDB").hasSizeGreaterThanOrEqualTo(2);

            ErasureReceipt r = tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo");

            assertThat(r.sessions()).isEqualTo(5);
            assertThat(r.complete()).isTrue();
            assertThat(r.scrub()).contains("append-only file rewritten").contains("RDB snapshot rewritten");
            assertThat(filesWith(ERASED)).as("after: in no file of the server").isEmpty();
            assertThat(filesWith(KEPT)).as("the other user's data stays in both").hasSizeGreaterThanOrEqualTo(2);
            acme.open("bob-3").submit("still working after the scrub");
        }
    }

    private static void fill(Tenant t, String id, String user, String canary) {
        Session s = t.create(new NewSession(id, user, SessionConfig.DEFAULT, Map.of("note", canary), null));
        for (int i = 0; i < 6; i++) {
            s.submit("turn " + i + " says " + canary);
        }
        s.edit("test", "remember", List.of(new Edit.SetVariable(VariableScope.USER, "fact", TextNode.valueOf(canary)),
                new Edit.SetVariable(VariableScope.SESSION, "own", TextNode.valueOf(canary))));
    }

    /** The server's data files (AOF parts, dump.rdb; not its log) that hold the canary's bytes. */
    private List<Path> filesWith(String canary) throws IOException {
        byte[] needle = canary.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(server.dir())) {
            return files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("server.log"))
                    .filter(f -> contains(f, needle)).toList();
        }
    }

    private static boolean contains(Path f, byte[] needle) {
        byte[] hay;
        try {
            hay = Files.readAllBytes(f);
        } catch (IOException gone) {
            return false; // a temporary file the server removed while we walked
        }
        // ISO-8859-1 maps each byte to one char, so a substring search is a byte search
        return new String(hay, StandardCharsets.ISO_8859_1).contains(new String(needle, StandardCharsets.ISO_8859_1));
    }
}
