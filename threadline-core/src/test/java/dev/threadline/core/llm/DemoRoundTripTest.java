package dev.threadline.core.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SimpleExecutionContext;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.state.VariableScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo model driving the real built-in skills through a minimal stand-in for the agent loop. */
class DemoRoundTripTest {
    @TempDir
    Path ws;

    private final ChatModel model = ScriptedModel.demo();
    private final List<Message> transcript = new ArrayList<>();
    private final Map<String, JsonNode> variables = new HashMap<>();
    private SkillRegistry registry;

    private String turn(String text) {
        transcript.add(Message.user(text));
        for (int i = 0; i < 4; i++) {
            ChatResponse r = model.complete(new ChatRequest("scripted", "", transcript, registry.toolSpecs(List.of()), 1000));
            transcript.add(r.toMessage());
            if (r.stopReason() != StopReason.TOOL_USE) {
                return r.text();
            }
            List<ContentBlock.ToolResult> results = new ArrayList<>();
            for (ContentBlock.ToolUse use : r.toMessage().toolUses()) {
                results.add(run(use));
            }
            transcript.add(Message.toolResults(results));
        }
        throw new AssertionError("the turn did not end");
    }

    private ContentBlock.ToolResult run(ContentBlock.ToolUse use) {
        Skill skill = registry.find(use.name()).orElseThrow();
        List<String> problems = registry.validator().validate(skill, use.input());
        if (!problems.isEmpty()) {
            return new ContentBlock.ToolResult(use.id(), String.join("; ", problems), true);
        }
        try {
            SkillResult result = skill.execute(new SimpleExecutionContext("s1", use.id(), use.input(),
                    Map.of(VariableScope.SESSION, Map.copyOf(variables)), transcript, Instant.MAX, () -> false));
            for (VariableWrite w : result.writes()) {
                JsonNode value = w.applyTo(variables.get(w.name()));
                if (value == null) {
                    variables.remove(w.name());
                } else {
                    variables.put(w.name(), value);
                }
            }
            return new ContentBlock.ToolResult(use.id(), result.content(), result.isError());
        } catch (Exception e) {
            return new ContentBlock.ToolResult(use.id(), e.toString(), true);
        }
    }

    @Test
    void aConversationThroughEverySkill() throws IOException {
        Files.writeString(ws.resolve("README.md"), "# Hello");
        registry = SkillRegistry.of(Builtins.all(ws));

        assertThat(turn("what is (2+3)*4?")).isEqualTo("(2+3)*4 = 20");
        assertThat(turn("note buy milk")).isEqualTo("Noted (1 note): buy milk");
        assertThat(turn("remember call Bob")).isEqualTo("Noted (2 notes): call Bob");
        assertThat(turn("notes")).isEqualTo("1. buy milk\n2. call Bob");
        assertThat(turn("read README.md")).isEqualTo("Here is README.md:\n\n# Hello");
        assertThat(turn("ls")).isEqualTo("Files in .:\nREADME.md");
        assertThat(turn("read ../etc/passwd")).startsWith("The read_file tool failed: cannot read '../etc/passwd'");
        assertThat(turn("what is 1/0")).isEqualTo(
                "The calculate tool failed: cannot evaluate '1/0': division by zero at position 2");
        assertThat(turn("clear notes")).isEqualTo("Cleared 2 notes.");
        assertThat(turn("good night")).contains("offline demo model");

        assertThat(variables).isEmpty();
        assertThat(TranscriptValidator.violations(transcript, TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
        List<String> ids = transcript.stream().flatMap(m -> m.toolUses().stream()).map(ContentBlock.ToolUse::id).toList();
        assertThat(ids).hasSize(9).doesNotHaveDuplicates();
    }
}
