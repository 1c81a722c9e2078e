package dev.threadline.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.skill.Effect;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scripted models and skills of the human-in-the-loop tests: {@code scripted} (the demo), {@code ask}
 * (asks the user, then repeats the answer), {@code gate} (calls the {@code gate} skill, which waits for
 * the test, on "gate"; {@code pay}, a side effect, on "pay"; echoes anything else).
 */
final class TestModels {
    /** Counted down when a call of {@code gate} starts; replaced by each test that uses it. */
    static volatile CountDownLatch entered = new CountDownLatch(1);
    /** Lets a waiting {@code gate} call finish. */
    static volatile CountDownLatch release = new CountDownLatch(1);
    /** How many times {@code pay} ran. */
    static final AtomicInteger payments = new AtomicInteger();

    private TestModels() {}

    static void resetGate() {
        release.countDown();
        entered = new CountDownLatch(1);
        release = new CountDownLatch(1);
    }

    static ModelResolver resolver() {
        ChatModel demo = ScriptedModel.demo();
        ChatModel ask = ScriptedModel.of(req -> {
            Message last = req.messages().getLast();
            if (!last.toolResults().isEmpty()) {
                return ScriptedModel.text("you said " + last.toolResults().getFirst().content());
            }
            return ScriptedModel.toolUse("q" + req.messages().size(), "ask_user", "{\"question\":\"Which city?\"}");
        });
        ChatModel gate = ScriptedModel.of(req -> {
            Message last = req.messages().getLast();
            if (!last.toolResults().isEmpty()) {
                return ScriptedModel.text("done: " + last.toolResults().getFirst().content());
            }
            return switch (last.text()) {
                case "gate" -> ScriptedModel.toolUse("g" + req.messages().size(), "gate", "{}");
                case "pay" -> ScriptedModel.toolUse("p" + req.messages().size(), "pay", "{\"amount\":7}");
                default -> ScriptedModel.text("ack " + last.text());
            };
        });
        return spec -> Optional.ofNullable(switch (spec) {
            case "scripted" -> demo;
            case "ask" -> ask;
            case "gate" -> gate;
            default -> null;
        });
    }

    static List<Skill> skills() {
        return List.of(new Simple("gate", SkillPolicy.DEFAULT) {
            @Override
            public SkillResult execute(ExecutionContext c) throws InterruptedException {
                entered.countDown();
                if (!release.await(60, TimeUnit.SECONDS)) {
                    return SkillResult.error("the test never released the gate");
                }
                return SkillResult.ok("passed");
            }
        }, new Simple("pay", SkillPolicy.DEFAULT.withEffect(Effect.SIDE_EFFECT)) {
            @Override
            public SkillResult execute(ExecutionContext c) {
                return SkillResult.ok("paid " + payments.incrementAndGet());
            }
        });
    }

    private abstract static class Simple implements Skill {
        private final String name;
        private final SkillPolicy policy;

        Simple(String name, SkillPolicy policy) {
            this.name = name;
            this.policy = policy;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "a test skill";
        }

        @Override
        public JsonNode inputSchema() {
            return Json.parse("{\"type\":\"object\"}", "schema");
        }

        @Override
        public SkillPolicy policy() {
            return policy;
        }
    }
}
