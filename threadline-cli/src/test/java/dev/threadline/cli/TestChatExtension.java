package dev.threadline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.BooleanSupplier;

/**
 * The {@link ChatExtension} of the CLI's process tests, loaded in a {@code threadline chat} child with
 * {@code -Dthreadline.chat.extension=dev.threadline.cli.TestChatExtension}. On top of the demo model:
 * "slow" calls {@code slow_wait}, which prints {@code slow: started} and runs until the turn is
 * cancelled; "pay N" calls {@code pay} (a side effect that needs approval; appends N to the file named by
 * {@code -Dthreadline.test.runs}); "story" streams "Once", "upon", "a time" on lines of their own
 * and holds back the second until the file {@code -Dthreadline.test.gate} exists. Anything else goes
 * to the demo model.
 */
public final class TestChatExtension implements ChatExtension {
    private static final Duration BOUND = Duration.ofSeconds(60);

    @Override
    public List<Skill> skills() {
        return List.of(new SlowWait(), new Pay());
    }

    @Override
    public ChatModel model(ChatModel chosen) {
        return new Model(chosen);
    }

    /** Waits (bounded) until {@code done} holds, re-checking every 20 ms; false when the bound passed. */
    static boolean await(BooleanSupplier done) {
        long end = System.nanoTime() + BOUND.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            LockSupport.parkNanos(20_000_000L);
        }
        return true;
    }

    private record Model(ChatModel demo) implements ChatModel {
        @Override
        public String name() {
            return demo.name();
        }

        @Override
        public int contextWindowTokens() {
            return demo.contextWindowTokens();
        }

        private ChatResponse own(ChatRequest request) {
            Message last = request.messages().get(request.messages().size() - 1);
            int n = request.messages().size();
            if (!last.toolResults().isEmpty() && last.toolResults().get(0).toolUseId().startsWith("x")) {
                return ScriptedModel.text("done: " + last.toolResults().get(0).content());
            }
            String t = last.text();
            if (t.equals("slow")) {
                return ScriptedModel.toolUse("x" + n, "slow_wait", "{}");
            }
            if (t.startsWith("pay ")) {
                return ScriptedModel.toolUse("x" + n, "pay", "{\"amount\":" + t.substring(4).strip() + "}");
            }
            return t.equals("story") ? ScriptedModel.text("Once\nupon\na time") : null;
        }

        @Override
        public ChatResponse complete(ChatRequest request) {
            ChatResponse r = own(request);
            return r != null ? r : demo.complete(request);
        }

        @Override
        public ChatResponse stream(ChatRequest request, Consumer<String> listener) {
            ChatResponse r = own(request);
            if (r == null) {
                return demo.stream(request, listener);
            }
            if (r.text().startsWith("Once")) {
                listener.accept("Once\n");
                Path gate = Path.of(System.getProperty("threadline.test.gate"));
                if (!await(() -> Files.exists(gate))) {
                    throw new IllegalStateException("the test did not create " + gate);
                }
                listener.accept("upon\n");
                listener.accept("a time");
            } else if (!r.text().isEmpty()) {
                listener.accept(r.text());
            }
            return r;
        }
    }

    private static final class SlowWait implements Skill {
        @Override public String name() { return "slow_wait"; }

        @Override public String description() { return "runs until the turn is interrupted"; }

        @Override public JsonNode inputSchema() { return Json.parse("{\"type\":\"object\"}", "schema"); }

        @Override
        public SkillResult execute(ExecutionContext c) {
            System.out.println("slow: started");
            System.out.flush();
            return await(c::isCancelled) ? SkillResult.ok("cancelled") : SkillResult.error("never interrupted");
        }
    }

    private static final class Pay implements Skill {
        @Override public String name() { return "pay"; }

        @Override public String description() { return "pays an amount"; }

        @Override
        public JsonNode inputSchema() {
            return Json.parse("{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\",\"minimum\":1,"
                    + "\"maximum\":100}},\"required\":[\"amount\"],\"additionalProperties\":false}", "schema");
        }

        @Override
        public SkillPolicy policy() {
            return SkillPolicy.REQUIRES_APPROVAL.withEffect(dev.threadline.core.skill.Effect.SIDE_EFFECT);
        }

        @Override
        public SkillResult execute(ExecutionContext c) {
            int amount = c.arguments().get("amount").asInt();
            try {
                Files.writeString(Path.of(System.getProperty("threadline.test.runs")), amount + "\n",
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return SkillResult.ok("paid " + amount);
        }
    }
}
