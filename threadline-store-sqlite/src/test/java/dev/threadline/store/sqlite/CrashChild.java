package dev.threadline.store.sqlite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.skill.builtin.Builtins;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * The process {@link CrashTest} kills: runs scripted conversations on a few sessions of one SQLite
 * file until it is killed, printing {@code ACK session seq started} after every durable commit
 * ({@code started} = the step started tool calls, which are then running).
 */
public final class CrashChild {
    static final List<String> SESSIONS = List.of("c0", "c1", "c2", "c3");

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        PrintStream out = new PrintStream(System.out, false, java.nio.charset.StandardCharsets.UTF_8);
        Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).snapshotEvery(16)
                .model(model()).skills(Builtins.all(Path.of("."))).skill(new Slow()).build();
        tl.defaultTenant().addListener((id, events, state) -> {
            boolean started = events.stream().anyMatch(e -> e.event() instanceof Event.ToolCallStarted);
            StoredEvent last = events.get(events.size() - 1);
            synchronized (out) {
                out.println("ACK " + id + " " + last.seq() + " " + started);
                out.flush();
            }
        });
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < SESSIONS.size(); i++) {
            String id = SESSIONS.get(i);
            Random rnd = new Random(seed * 31 + i);
            threads.add(Thread.ofVirtual().start(() -> {
                Session s = tl.defaultTenant().openOrCreate(id, SessionConfig.DEFAULT.withToolTimeoutMillis(5_000));
                for (int n = 0; ; n++) {
                    String text = switch (rnd.nextInt(4)) {
                        case 0 -> "what is (" + n + "+3)*" + rnd.nextInt(9);
                        case 1 -> "note item " + n;
                        case 2 -> "slow " + n;
                        default -> "hello " + n;
                    };
                    s.submit(text);
                }
            }));
        }
        out.println("READY");
        out.flush();
        for (Thread t : threads) {
            t.join();
        }
    }

    /** The demo model, plus: "slow N" asks for two slow tool calls at once. */
    static ScriptedModel model() {
        ScriptedModel demo = ScriptedModel.demo();
        return ScriptedModel.of(req -> {
            Message last = req.messages().get(req.messages().size() - 1);
            if (last.text().startsWith("slow ")) {
                JsonNode in = Json.parse("{}", "input");
                String base = "slow_" + req.messages().size() + "_";
                return new ChatResponse(List.of(new ContentBlock.ToolUse(base + "a", "slow", in),
                        new ContentBlock.ToolUse(base + "b", "slow", in)), StopReason.TOOL_USE, Usage.of(5, 5));
            }
            if (!last.toolResults().isEmpty() && last.toolResults().get(0).toolUseId().startsWith("slow_")) {
                return new ChatResponse(List.of(ContentBlock.text("slow work done")), StopReason.END_TURN, Usage.of(5, 5));
            }
            return demo.complete(req);
        });
    }

    /** A tool that works for 20-60 ms: long enough to be running when the process is killed. */
    static final class Slow implements Skill {
        @Override
        public String name() {
            return "slow";
        }

        @Override
        public String description() {
            return "does slow work";
        }

        @Override
        public JsonNode inputSchema() {
            return Json.parse("{\"type\":\"object\"}", "schema");
        }

        @Override
        public SkillResult execute(ExecutionContext context) {
            LockSupport.parkNanos(20_000_000L + (long) (Math.random() * 40_000_000L)); // simulated work, not synchronisation
            return SkillResult.ok("slow result");
        }
    }
}
