package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.state.Edit;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web inspector end to end: a real {@code threadline serve} on loopback with the scripted model,
 * sessions seeded through the Java API (the 10,000-message one, before the server starts) and the HTTP
 * API, and the Node tests in {@code src/test/ui} driving Debian's headless Chromium with playwright-core:
 * log in, open a session, watch a streamed turn (token deltas included), approve / deny / edit-and-approve
 * a call, answer a question, edit a variable, double-text with a strategy, interrupt, clear, fork at a
 * checkpoint (with the side-effect acknowledgement) and see the branch, diff two checkpoints, and the
 * first paint of the big session. Screenshots land in
 * {@code target/inspector-screenshots/}.
 */
class InspectorBrowserTest {
    static final int BIG_MESSAGES = 10_000;
    private static final Path UI = Path.of("src/test/ui");
    private static final Path SHOTS = Path.of("target/inspector-screenshots");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path dir;

    @Test
    void theInspectorPassesItsBrowserTests() throws Exception {
        String node = requireTools();
        Path db = dir.resolve("threadline.db");
        seedBeforeStart(db);
        // the scripted models and skills of the human-in-the-loop tests (ask_user, a gate that holds a turn, a paying side effect)
        ServerConfig config = ServerConfig.of(db).withPort(0).withModels(TestModels.resolver()).withSkills(TestModels.skills());
        TestModels.resetGate();
        try (TestServer server = new TestServer(config)) {
            seedOverHttp(server.http);
            npmCiIfNeeded();
            Files.createDirectories(SHOTS);
            Files.deleteIfExists(SHOTS.resolve("first-paint.json"));
            ProcessBuilder pb = new ProcessBuilder(node, "--test", "--test-concurrency=1", "--test-reporter=spec", "units.test.mjs", "inspector.test.mjs")
                    .directory(UI.toFile()).redirectErrorStream(true).redirectOutput(SHOTS.resolve("node-output.txt").toFile());
            pb.environment().put("TL_URL", server.server.url().toString());
            pb.environment().put("TL_KEY", server.http.key);
            pb.environment().put("TL_SHOTS", SHOTS.toAbsolutePath().toString());
            pb.environment().put("TL_BIG", "big");
            pb.environment().put("TL_BIG_MESSAGES", String.valueOf(BIG_MESSAGES));
            Process p = pb.start();
            boolean ended;
            try {
                ended = p.waitFor(5, TimeUnit.MINUTES);
                if (!ended) {
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            } finally {
                TestModels.resetGate(); // nothing may still wait at the gate when the server stops
            }
            String text = Files.readString(SHOTS.resolve("node-output.txt"));
            if (!ended) {
                fail("the browser tests did not finish within 5 minutes:\n" + text);
            }
            if (p.exitValue() != 0) {
                fail("the browser tests failed (node exit " + p.exitValue() + "):\n" + text);
            }
            Path paint = SHOTS.resolve("first-paint.json");
            assertThat(paint).as("the big session's first paint is measured").exists();
            System.out.println("inspector: first paint of a " + BIG_MESSAGES + "-message session: " + Files.readString(paint).strip());
        }
    }

    /** node and chromium, or the test is skipped with how to get them (a failure when CI=true). */
    private static String requireTools() {
        List<String> missing = new ArrayList<>();
        String node = which("node");
        if (node == null) {
            missing.add("node (apt-get install nodejs npm)");
        }
        if (!Files.isExecutable(CHROMIUM)) {
            missing.add("/usr/bin/chromium (apt-get install chromium, or bash scripts/ci-chromium.sh)");
        }
        if (!missing.isEmpty()) {
            String message = "the inspector's browser tests need " + String.join(" and ", missing);
            if ("true".equals(System.getenv("CI"))) {
                fail(message + " (CI=true: this is a failure; ./test runs scripts/ci-chromium.sh, which installs them)");
            }
            Assumptions.abort(message);
        }
        return node;
    }

    private static String which(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /** {@code npm ci} when playwright-core is not installed at the locked version (scripts/ci-chromium.sh has usually done it). */
    private static void npmCiIfNeeded() throws IOException, InterruptedException {
        Path installed = UI.resolve("node_modules/.package-lock.json");
        if (Files.exists(installed) && Files.getLastModifiedTime(installed).compareTo(Files.getLastModifiedTime(UI.resolve("package-lock.json"))) >= 0) {
            return;
        }
        String npm = which("npm");
        if (npm == null) {
            fail("npm is needed to install playwright-core for the inspector's browser tests: apt-get install npm");
        }
        Process p = new ProcessBuilder(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error").directory(UI.toFile())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(3, TimeUnit.MINUTES) || p.exitValue() != 0) {
            fail("npm ci in " + UI + " failed:\n" + out);
        }
    }

    /**
     * Through the Java API on the server's database file, before the server opens it: the
     * 10,000-message session (appended by edits, 10 messages a step, so it has 1,000 checkpoints) and a
     * session whose {@code calculate} calls need approval.
     */
    static void seedBeforeStart(Path db) {
        try (Threadline runtime = Threadline.builder().store(SqliteStateStore.open(db))
                .skills(Builtins.all(db.getParent())).build()) {
            Tenant t = runtime.tenant("default");
            Session big = t.create(new NewSession("big", "load", SessionConfig.DEFAULT, Map.of("size", "10k"), null));
            int perStep = 10;
            for (int step = 0; step < BIG_MESSAGES / perStep; step++) {
                List<Edit> edits = new ArrayList<>(perStep);
                for (int i = 0; i < perStep; i++) {
                    int n = step * perStep + i;
                    String text = "message " + n + (n % 7 == 0 ? ": a longer one,\nover two lines, " + "so rows differ in height. ".repeat(n % 5 + 1) : "");
                    edits.add(Edit.append(n % 2 == 0 ? Message.user(text) : Message.assistantText(text)));
                }
                big.edit("seed", "step " + step, edits);
            }
            t.create(new NewSession("approve-me", "ana", SessionConfig.DEFAULT.withRequireApproval(List.of("calculate")),
                    Map.of("topic", "approvals"), null));
        }
    }

    /** Through the HTTP API: a session with turns, a compaction and a tool call, and a fork of it. */
    static void seedOverHttp(Http http) {
        ok(http.post("/v1/sessions", "{\"id\":\"walk\",\"userId\":\"ana\",\"metadata\":{\"topic\":\"demo\"}}"));
        ok(http.post("/v1/sessions/walk/messages", "{\"text\":\"what is (2+3)*4\"}"));
        ok(http.post("/v1/sessions/walk/messages", "{\"text\":\"note buy milk\"}"));
        ok(http.post("/v1/sessions/walk/compact", "{}"));
        ok(http.post("/v1/sessions/walk/messages", "{\"text\":\"note call the bank\"}"));
        ok(http.post("/v1/sessions/walk/fork", "{\"seq\":7,\"id\":\"walk-fork\"}"));
        ok(http.post("/v1/sessions", "{\"id\":\"live\",\"userId\":\"bo\",\"metadata\":{\"topic\":\"live\"}}"));
        ok(http.post("/v1/sessions", "{\"id\":\"ask-me\",\"userId\":\"bo\",\"config\":{\"model\":\"ask\"}}"));
        ok(http.post("/v1/sessions", "{\"id\":\"gated\",\"userId\":\"bo\",\"config\":{\"model\":\"gate\"}}"));
        ok(http.post("/v1/sessions", "{\"id\":\"pay-me\",\"userId\":\"bo\",\"config\":{\"model\":\"gate\"}}"));
        ok(http.post("/v1/sessions/pay-me/messages", "{\"text\":\"pay\"}"));
    }

    private static void ok(Http.Response r) {
        assertThat(r.status()).as(r.body()).isBetween(200, 299);
    }
}
