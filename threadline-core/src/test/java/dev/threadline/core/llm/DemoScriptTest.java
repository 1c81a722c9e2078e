package dev.threadline.core.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.skill.builtin.Builtins;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemoScriptTest {
    private static final List<ToolSpec> TOOLS = SkillRegistry.of(Builtins.all(Path.of("."))).toolSpecs(List.of());
    private final ChatModel model = ScriptedModel.demo();

    private ChatResponse ask(List<Message> messages, List<ToolSpec> tools) {
        return model.complete(new ChatRequest("scripted", "be brief", messages, tools, 1000));
    }

    private ContentBlock.ToolUse toolUseFor(String text) {
        ChatResponse r = ask(List.of(Message.user(text)), TOOLS);
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        return r.toMessage().toolUses().getFirst();
    }

    @Test
    void arithmeticCallsCalculate() {
        ChatResponse r = ask(List.of(Message.user("what is (2+3)*4?")), TOOLS);
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        ContentBlock.ToolUse use = r.toMessage().toolUses().getFirst();
        assertThat(use.name()).isEqualTo("calculate");
        assertThat(use.input()).isEqualTo(Json.parse("{\"expression\":\"(2+3)*4\"}", "t"));
        assertThat(use.id()).matches("toolu_1_0_[0-9a-f]{8}");
        assertThat(r.usage().inputTokens()).isPositive();
        assertThat(r.usage().outputTokens()).isPositive();
    }

    @Test
    void isDeterministic() {
        List<Message> messages = List.of(Message.user("what is 6*7"));
        assertThat(ask(messages, TOOLS)).isEqualTo(ask(messages, TOOLS));
    }

    @Test
    void notesFilesAndListing() {
        assertThat(toolUseFor("note buy milk").input()).isEqualTo(Json.parse("{\"action\":\"add\",\"note\":\"buy milk\"}", "t"));
        assertThat(toolUseFor("remember call Bob").input().get("note").asText()).isEqualTo("call Bob");
        assertThat(toolUseFor("show notes").input()).isEqualTo(Json.parse("{\"action\":\"list\"}", "t"));
        ContentBlock.ToolUse read = toolUseFor("read README.md");
        assertThat(read.name()).isEqualTo("read_file");
        assertThat(read.input().get("path").asText()).isEqualTo("README.md");
        ContentBlock.ToolUse ls = toolUseFor("ls");
        assertThat(ls.name()).isEqualTo("list_files");
        assertThat(ls.input().get("path").asText()).isEqualTo(".");
    }

    @Test
    void reportsToolResultsInWords() {
        Message call = ScriptedModel.toolUse("t1", "calculate", "{\"expression\":\"(2+3)*4\"}").toMessage();
        ChatResponse r = ask(List.of(Message.user("what is (2+3)*4"), call,
                Message.toolResults(List.of(new ContentBlock.ToolResult("t1", "20", false)))), TOOLS);
        assertThat(r.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(r.text()).isEqualTo("(2+3)*4 = 20");
    }

    @Test
    void reportsFailuresAndEchoesNotes() {
        Message call = ScriptedModel.toolUse("t1", "calculate", "{\"expression\":\"1/0\"}").toMessage();
        ChatResponse failed = ask(List.of(Message.user("1/0"), call, Message.toolResults(List.of(
                new ContentBlock.ToolResult("t1", "division by zero at position 2", true)))), TOOLS);
        assertThat(failed.text()).isEqualTo("The calculate tool failed: division by zero at position 2");
        Message note = ScriptedModel.toolUse("t2", "meeting_minutes", "{\"action\":\"list\"}").toMessage();
        ChatResponse listed = ask(List.of(Message.user("notes"), note, Message.toolResults(List.of(
                new ContentBlock.ToolResult("t2", "1. buy milk", false)))), TOOLS);
        assertThat(listed.text()).isEqualTo("1. buy milk");
    }

    @Test
    void otherwiseSaysPlainlyItIsAnOfflineDemo() {
        ChatResponse r = ask(List.of(Message.user("tell me a story")), TOOLS);
        assertThat(r.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(r.text()).contains("offline demo model").contains("not a real LLM")
                .contains("I understood: \"tell me a story\"")
                .contains("calculate arithmetic").contains("keep notes").contains("read a workspace file")
                .contains("list workspace files");
        assertThat(ask(List.of(), TOOLS).text()).contains("offline demo model");
    }

    @Test
    void onlyOffersToolsTheRequestContains() {
        List<ToolSpec> onlyNotes = TOOLS.stream().filter(t -> t.name().equals("meeting_minutes")).toList();
        ChatResponse r = ask(List.of(Message.user("what is 2+2")), onlyNotes);
        assertThat(r.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(r.text()).contains("calculate tool").contains("not enabled").contains("keep notes")
                .doesNotContain("calculate arithmetic");
        assertThat(ask(List.of(Message.user("hi")), List.of()).text()).contains("No tools are enabled");
    }

    @Test
    void idsDifferWhenAShortenedViewHasTheSameLength() {
        Message a = Message.user("what is 1+1");
        Message b = Message.user("what is 2+2");
        String first = ask(List.of(a), TOOLS).toMessage().toolUses().getFirst().id();
        String second = ask(List.of(b), TOOLS).toMessage().toolUses().getFirst().id();
        assertThat(first).startsWith("toolu_1_0_").isNotEqualTo(second);
    }
}
