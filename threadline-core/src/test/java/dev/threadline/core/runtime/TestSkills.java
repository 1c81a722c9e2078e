package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** Small skills and replies for runtime tests. */
final class TestSkills {
    private TestSkills() {}

    static JsonNode json(String s) {
        return Json.parse(s, "test");
    }

    static ChatResponse toolCall(String id, String name, String inputJson) {
        return new ChatResponse(List.of(new ContentBlock.ToolUse(id, name, json(inputJson))), StopReason.TOOL_USE, Usage.of(10, 5));
    }

    static ChatResponse toolCalls(ContentBlock.ToolUse... uses) {
        return new ChatResponse(List.of(uses), StopReason.TOOL_USE, Usage.of(10, 5));
    }

    static ChatResponse text(String text) {
        return new ChatResponse(List.of(ContentBlock.text(text)), StopReason.END_TURN, Usage.of(10, 5));
    }

    /** echo {"text": string}: returns its text. */
    static Skill echo() {
        return new Simple("echo", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}") {
            @Override
            public SkillResult execute(ExecutionContext c) {
                return SkillResult.ok(c.arguments().get("text").asText());
            }
        };
    }

    /** boom: always throws. */
    static Skill boom() {
        return new Simple("boom", "{\"type\":\"object\"}") {
            @Override
            public SkillResult execute(ExecutionContext c) {
                throw new IllegalStateException("the disk is on fire");
            }
        };
    }

    /** hang: blocks until cancelled (it honours interruption), counting down {@code started} first. */
    static Skill hang(CountDownLatch started) {
        return new Simple("hang", "{\"type\":\"object\"}") {
            @Override
            public SkillResult execute(ExecutionContext c) throws InterruptedException {
                started.countDown();
                new CountDownLatch(1).await(); // only an interrupt ends this
                return SkillResult.ok("never");
            }
        };
    }

    /** gate: counts down {@code entered}, then waits (up to 30 s) for {@code release}; returns "passed". */
    static Skill gate(CountDownLatch entered, CountDownLatch release) {
        return new Simple("gate", "{\"type\":\"object\"}") {
            @Override
            public SkillResult execute(ExecutionContext c) throws InterruptedException {
                entered.countDown();
                if (!release.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
                    return SkillResult.error("the test never released the gate");
                }
                return SkillResult.ok("passed");
            }
        };
    }

    /** A model that calls {@code gate} on "gate" and answers "done" once the result is in; echoes other text. */
    static dev.threadline.core.llm.ChatModel gateModel() {
        return dev.threadline.core.llm.ScriptedModel.of(req -> {
            var last = req.messages().get(req.messages().size() - 1);
            if (!last.toolResults().isEmpty()) {
                return text("done: " + last.toolResults().get(0).content());
            }
            return last.text().equals("gate") ? toolCall("g" + req.messages().size(), "gate", "{}") : text("ack " + last.text());
        });
    }

    abstract static class Simple implements Skill {
        private final String name;
        private final JsonNode schema;

        Simple(String name, String schema) {
            this.name = name;
            this.schema = json(schema);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return name + " (test skill)";
        }

        @Override
        public JsonNode inputSchema() {
            return schema;
        }
    }
}
