package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.T0;
import static dev.threadline.store.tck.StoreFixtures.parse;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.state.Compaction;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A journal holding every kind of event, with the values serializers get wrong: nested JSON,
 * unicode, quotes, newlines, big and fractional numbers, JSON null, nanosecond times.
 * Stateless: its fixtures are immutable values.
 */
public final class RoundTripFixtures {
    /** Text that breaks naive escaping. */
    public static final String AWKWARD = "quotes \" ' \\ backslash, newline\n tab\t, unicode é ü 日本語 🧵, nul-ish \u0001";

    /** A tool_use input with every JSON type. */
    public static final String TOOL_INPUT = """
            {"path": "/tmp/a b.txt", "lines": [1, 2, 3], "ratio": 0.25, "big": 9007199254740993,
             "flags": {"dry": true, "force": false, "none": null}, "nested": [{"k": "v"}, [], {}],
             "text": "line1\\nline2 \\"quoted\\" é"}""";

    private RoundTripFixtures() {}

    /** A session {@code id} whose config and metadata hold every awkward value. */
    public static SessionInfo session(String id) {
        SessionConfig config = new SessionConfig("claude-test", "You are terse. " + AWKWARD, List.of("read_file", "calc"),
                "full", 7, 1234);
        return new SessionInfo(id, "acme", "alice", config, Map.of("project", "x", "note", AWKWARD),
                T0, T0.plusSeconds(86_400), null, 0);
    }

    /** Every event type in one valid-looking journal of session {@code id}, seq 1..n. */
    public static List<StoredEvent> everyEvent(String id) {
        List<Event> events = List.of(
                new Event.SessionCreated(session(id)),
                new Event.UserMessageReceived(new Message(Role.USER, List.of(ContentBlock.text(AWKWARD),
                        new ContentBlock.ImageRef("file:///img/1.png", "image/png")), null, null)),
                new Event.AssistantMessageReceived(Message.assistant(List.of(
                        new ContentBlock.Thinking("let me think " + AWKWARD, "sig-abc=="),
                        ContentBlock.text("I will read it."),
                        new ContentBlock.ToolUse("toolu_01", "read_file", parse(TOOL_INPUT)),
                        new ContentBlock.ToolUse("toolu_02", "calc", parse("{}"))),
                        StopReason.TOOL_USE, new Usage(1200, 345, 1000, 17))),
                new Event.ToolCallStarted("toolu_01", "read_file"),
                new Event.ToolCallStarted("toolu_02", "calc"),
                new Event.ToolCallCompleted("toolu_01", "contents: " + AWKWARD, false),
                new Event.ToolCallFailed("toolu_02", "division by zero"),
                new Event.AssistantMessageReceived(Message.assistantText("done")),
                new Event.VariablesChanged(VariableScope.SESSION, Map.of(
                        "plan", parse("{\"steps\": [\"a\", \"b\"], \"done\": 1, \"score\": -2.5e-3}"),
                        "name", parse("\"" + "é 🧵" + "\""),
                        "empty", parse("null"),
                        "count", parse("42")), List.of("old")),
                new Event.VariablesChanged(VariableScope.USER, Map.of("lang", parse("\"fr\"")), List.of()),
                new Event.TurnCompleted("end_turn"),
                new Event.UserMessageReceived(Message.user("slow one")),
                new Event.AssistantMessageReceived(Message.assistant(List.of(
                        new ContentBlock.ToolUse("toolu_03", "sleep", parse("{\"ms\": 99999}"))),
                        StopReason.TOOL_USE, Usage.of(10, 5))),
                new Event.ToolCallTimedOut("toolu_03", 30_000),
                new Event.TurnInterrupted("user pressed ctrl-c"),
                new Event.ContextCompacted("summary: " + AWKWARD, 4),
                new Event.Cleared());
        List<StoredEvent> out = new ArrayList<>();
        CheckpointSource[] sources = CheckpointSource.values();
        for (int i = 0; i < events.size(); i++) {
            long seq = i + 1;
            out.add(new StoredEvent(id, seq, (seq + 1) / 2, T0.plusNanos(seq * 1_000_001L),
                    "cmd/" + seq + " " + AWKWARD, sources[i % sources.length], events.get(i)));
        }
        return out;
    }

    /** A snapshot with every field set. */
    public static StateSnapshot snapshot(long seq) {
        PendingToolCall pending = new PendingToolCall("toolu_9", "calc", parse(TOOL_INPUT), 0, true,
                new ContentBlock.ToolResult("toolu_9", "42 " + AWKWARD, false));
        return new StateSnapshot(seq, seq, SessionStatus.RUNNING, (int) seq,
                Map.of("plan", parse("{\"a\": [1, 2.5, null, \"é\"]}"), "n", parse("7")), List.of(pending),
                new Usage(100 + seq, 50, 3, 2), 1, new Compaction("earlier: " + AWKWARD, 2), 1,
                new Edit.SetModel("openai:llama3.1", "http://127.0.0.1:11434/v1"));
    }
}
