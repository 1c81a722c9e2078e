package dev.threadline.store.sqlite.multiprocess;

import dev.threadline.harness.process.GateSkill;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.skill.Compensable;
import dev.threadline.core.skill.Effect;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The skills and model of {@link HitlChild}. Each side effect appends a line to the runs file, so the
 * test counts what really ran, over every process: {@code pay <key> <amount>}, {@code undo <key>},
 * {@code charge-start <key>}, {@code charge-done <key>} (key: the call's idempotency key).
 */
final class HitlSkills {
    private HitlSkills() {}

    /** Appends one line to the runs file (each line written whole, by one write). */
    static void record(Path runs, String line) {
        try {
            Files.writeString(runs, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of the runs file that start with {@code prefix + " "}. */
    static List<String> runs(Path runs, String prefix) {
        try {
            return Files.exists(runs) ? Files.readAllLines(runs).stream().filter(l -> l.startsWith(prefix + " ")).toList() : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** pay {"amount": 1..100}: needs approval, a side effect, compensable (an undo line). */
    static final class Pay implements Skill, Compensable {
        private final Path runs;

        Pay(Path runs) {
            this.runs = runs;
        }

        @Override public String name() { return "pay"; }

        @Override public String description() { return "pays an amount"; }

        @Override
        public JsonNode inputSchema() {
            return Json.parse("{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\",\"minimum\":1,"
                    + "\"maximum\":100}},\"required\":[\"amount\"],\"additionalProperties\":false}", "schema");
        }

        @Override
        public SkillPolicy policy() {
            return SkillPolicy.REQUIRES_APPROVAL.withEffect(Effect.SIDE_EFFECT);
        }

        @Override
        public SkillResult execute(ExecutionContext c) {
            record(runs, "pay " + c.idempotencyKey() + " " + c.arguments().get("amount").asInt());
            return SkillResult.ok("paid " + c.arguments().get("amount").asInt());
        }

        @Override
        public SkillResult compensate(ExecutionContext c, String result) {
            record(runs, "undo " + c.idempotencyKey());
            return SkillResult.ok("refunded");
        }
    }

    /** charge {}: a side effect without approval that records its start, then waits at a gate (see {@link GateSkill}). */
    static final class Charge implements Skill {
        private final Path runs;
        private final GateSkill gate;

        Charge(Path runs, Path gates) {
            this.runs = runs;
            this.gate = new GateSkill(gates);
        }

        @Override public String name() { return "charge"; }

        @Override public String description() { return "charges a card"; }

        @Override public JsonNode inputSchema() { return gate.inputSchema(); }

        @Override
        public SkillPolicy policy() {
            return SkillPolicy.DEFAULT.withEffect(Effect.SIDE_EFFECT);
        }

        @Override
        public SkillResult execute(ExecutionContext c) {
            record(runs, "charge-start " + c.idempotencyKey());
            SkillResult r = gate.execute(c);
            record(runs, "charge-done " + c.idempotencyKey());
            return r;
        }
    }

    /**
     * "pay N" asks for pay {"amount": N}; "ask" asks the user a question; "charge" calls charge;
     * "slow" calls the gate skill; tool results get "done: " and their contents; any other text
     * "ack " and the text. Tool_use ids are the tool's initial and the transcript's length.
     */
    static ChatModel model() {
        return ScriptedModel.of(req -> {
            List<Message> ms = req.messages();
            Message last = ms.get(ms.size() - 1);
            int n = ms.size();
            if (!last.toolResults().isEmpty()) {
                return ScriptedModel.text("done: " + last.toolResults().stream().map(ContentBlock.ToolResult::content)
                        .collect(Collectors.joining(" + ")));
            }
            String t = last.text();
            if (t.startsWith("pay ")) {
                return ScriptedModel.toolUse("p" + n, "pay", "{\"amount\":" + t.substring(4) + "}");
            }
            return switch (t) {
                case "ask" -> ScriptedModel.toolUse("q" + n, "ask_user", "{\"question\":\"which colour?\"}");
                case "charge" -> ScriptedModel.toolUse("c" + n, "charge", "{}");
                case "slow" -> ScriptedModel.toolUse("g" + n, "gate", "{}");
                default -> ScriptedModel.text("ack " + t);
            };
        });
    }
}
