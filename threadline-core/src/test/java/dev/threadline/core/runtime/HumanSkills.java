package dev.threadline.core.runtime;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/** Skills and a model for the humans-in-the-loop tests: a payment that needs approval and counts its runs. */
final class HumanSkills {
    private HumanSkills() {}

    /** pay {"amount": integer 1..100}: needs approval; records the arguments of each run in {@code runs}. */
    static TestSkills.Simple pay(List<JsonNode> runs) {
        return new TestSkills.Simple("pay", "{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\",\"minimum\":1,"
                + "\"maximum\":100}},\"required\":[\"amount\"],\"additionalProperties\":false}") {
            @Override
            public SkillResult execute(ExecutionContext c) {
                runs.add(c.arguments());
                return SkillResult.ok("paid " + c.arguments().get("amount").asInt());
            }

            @Override
            public SkillPolicy policy() {
                return SkillPolicy.REQUIRES_APPROVAL;
            }
        };
    }

    static List<JsonNode> runs() {
        return new CopyOnWriteArrayList<>();
    }

    /**
     * "pay N" asks for pay {"amount": N}; "pay and echo" asks for pay 5 and echo "hi" in one reply;
     * "ask" asks the user (ask_user) a question; tool results are answered with "done: " and their
     * contents; any other text with "ack " and the text.
     */
    static ChatModel model() {
        return ScriptedModel.of(req -> {
            Message last = req.messages().get(req.messages().size() - 1);
            int n = req.messages().size();
            if (!last.toolResults().isEmpty()) {
                return text("done: " + last.toolResults().stream().map(ContentBlock.ToolResult::content)
                        .collect(Collectors.joining(" + ")));
            }
            String t = last.text();
            if (t.equals("pay and echo")) {
                return TestSkills.toolCalls(new ContentBlock.ToolUse("p" + n, "pay", TestSkills.json("{\"amount\":5}")),
                        new ContentBlock.ToolUse("e" + n, "echo", TestSkills.json("{\"text\":\"hi\"}")));
            }
            if (t.startsWith("pay ")) {
                return toolCall("p" + n, "pay", "{\"amount\":" + t.substring(4) + "}");
            }
            if (t.equals("ask")) {
                return toolCall("q" + n, "ask_user", "{\"question\":\"which colour?\"}");
            }
            if (t.startsWith("echo ")) {
                return toolCall("e" + n, "echo", "{\"text\":\"" + t.substring(5) + "\"}");
            }
            return text("ack " + t);
        });
    }
}
