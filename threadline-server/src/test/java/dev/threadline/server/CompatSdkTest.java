package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.skill.builtin.AskUserSkill;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official npm packages of the LangGraph SDK and the OpenAI SDK, unmodified, drive a real
 * {@code threadline serve} on loopback ({@code src/test/node/compat}, run with {@code node --test}). The
 * server runs the scripted models: {@code scripted} (the demo, which calls {@code calculate}),
 * {@code asker} (asks the user with {@code ask_user} for a message starting "ask ") and {@code gate}
 * (holds a message starting "slow" until a message "release" arrives on any session, then calls a tool, so the node test
 * can send a second message while a turn runs, without sleeping).
 */
class CompatSdkTest {
    /** The system prompt of the server's default config: the LangGraph assistant {@code default} must show it. */
    static final String DEFAULT_PROMPT = "You are the compat test's default assistant.";
    private static final AtomicInteger SLOW = new AtomicInteger();
    private static final Path NODE_DIR = Path.of("src/test/node/compat").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theLangGraphAndOpenAiSdksDriveTheServerUnmodified() throws Exception {
        String node = tool("node");
        String npm = tool("npm");
        if (!Files.isDirectory(NODE_DIR.resolve("node_modules/@langchain/langgraph-sdk"))
                || !Files.isDirectory(NODE_DIR.resolve("node_modules/openai"))) {
            Run install = run(List.of(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"), Map.of(), 300);
            if (install.code != 0) {
                fail("npm ci in " + NODE_DIR + " failed (exit " + install.code + "):\n" + install.output);
            }
        }
        ServerConfig config = ServerConfig.of(dir.resolve("threadline.db")).withPort(0).withModels(models())
                .withSessionDefaults(dev.threadline.core.session.SessionConfig.DEFAULT.withSystemPrompt(DEFAULT_PROMPT));
        try (TestServer server = new TestServer(config)) {
            String other = server.server.keys().create("other-tenant").secret();
            Run tests = run(List.of(node, "--test", "--test-reporter=tap", "langgraph.test.mjs", "openai.test.mjs"),
                    Map.of("THREADLINE_URL", server.server.url().toString(), "THREADLINE_KEY", server.http.key,
                            "THREADLINE_OTHER_KEY", other, "THREADLINE_DEFAULT_PROMPT", DEFAULT_PROMPT), 300);
            if (tests.code != 0) {
                fail("node --test failed (exit " + tests.code + "):\n" + tests.output);
            }
            assertThat(tests.output).contains("# fail 0").doesNotContain("# pass 0");
        }
    }

    /** The models the server resolves: the demo, a model that asks the user, and a model that waits for a release. */
    private static ModelResolver models() {
        ChatModel demo = ScriptedModel.demo();
        AtomicInteger ids = new AtomicInteger();
        Semaphore released = new Semaphore(0);
        ChatModel asker = ScriptedModel.of(request -> {
            Message last = request.messages().getLast();
            if (last.role() == Role.USER && last.text().startsWith("ask ")) {
                return ScriptedModel.toolUse("ask-" + ids.incrementAndGet(), AskUserSkill.NAME,
                        "{\"question\":\"" + last.text().substring(4).replace("\"", "'") + "\"}");
            }
            if (last.role() == Role.TOOL) {
                return ScriptedModel.text("you said: " + last.toolResults().getFirst().content());
            }
            return ScriptedModel.text("ok");
        });
        ChatModel gate = ScriptedModel.of(request -> gated(request, demo, released));
        return spec -> switch (spec) {
            case "scripted" -> Optional.of(demo);
            case "asker" -> Optional.of(asker);
            case "gate" -> Optional.of(gate);
            default -> Optional.empty();
        };
    }

    private static ChatResponse gated(ChatRequest request, ChatModel demo, Semaphore released) {
        Message last = request.messages().getLast();
        String text = last.role() == Role.USER ? last.text() : "";
        if (text.equals("release")) {
            released.release();
            return ScriptedModel.text("released");
        }
        if (text.startsWith("slow")) {
            try {
                // bounded: a test that never releases fails on its own assertions, not by hanging
                // then a tool call, so that the loop looks at an interrupt before it goes on
                return released.tryAcquire(60, TimeUnit.SECONDS) ? ScriptedModel.toolUse("slow-" + SLOW.incrementAndGet(), "calculate",
                        "{\"expression\":\"1+1\"}") : ScriptedModel.text("never released");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ScriptedModel.text("interrupted");
            }
        }
        return demo.complete(request);
    }

    private static String tool(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        String how = name + " is not on PATH: install Node.js 20+ and npm (apt-get install nodejs npm), then run "
                + "scripts/ci-node.sh (npm ci --prefix threadline-server/src/test/node/compat)";
        if ("true".equals(System.getenv("CI"))) {
            fail(how);
        }
        Assumptions.abort(how);
        return null;
    }

    private record Run(int code, String output) {}

    private static Run run(List<String> command, Map<String, String> env, int timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(NODE_DIR.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().remove("LANGGRAPH_API_KEY");
        pb.environment().remove("LANGSMITH_API_KEY");
        pb.environment().remove("LANGCHAIN_API_KEY");
        pb.environment().remove("OPENAI_API_KEY");
        pb.environment().remove("OPENAI_BASE_URL");
        Process p = pb.start();
        Path log = Files.createTempFile("compat-node", ".log");
        try {
            Thread pump = Thread.ofVirtual().start(() -> {
                try (var in = p.getInputStream()) {
                    Files.copy(in, log, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                } catch (IOException ignored) {
                    // the process ended
                }
            });
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                pump.join(10_000);
                return new Run(-1, "timed out after " + timeoutSeconds + " s:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            pump.join(10_000);
            return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
