package dev.threadline.harness.history;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds synthetic journals for the checker's tests: seqs are numbered automatically unless forced. */
final class Journals {
    private static final Instant T0 = Instant.parse("2025-01-15T10:00:00.123456789Z");
    private final String session;
    private final List<StoredEvent> events = new ArrayList<>();
    private long next = 1;
    private String command = "setup";

    private Journals(String session) {
        this.session = session;
        add(new Event.SessionCreated(new SessionInfo(session, SessionInfo.DEFAULT_TENANT, "local", SessionConfig.DEFAULT, Map.of(), T0, null, null, 0)));
    }

    static Journals of(String session) {
        return new Journals(session);
    }

    /** A whole turn: user message under {@code commandId}, a reply, TurnCompleted. */
    Journals turn(String commandId, String text) {
        return user(commandId, text).reply("re: " + text).completed();
    }

    Journals user(String commandId, String text) {
        command = commandId;
        return add(new Event.UserMessageReceived(Message.user(text)));
    }

    Journals reply(String text) {
        return add(new Event.AssistantMessageReceived(Message.assistantText(text)));
    }

    Journals toolUse(String toolUseId) {
        Message m = Message.assistant(List.of(new ContentBlock.ToolUse(toolUseId, "slow", Json.parse("{}", "input"))),
                StopReason.TOOL_USE, Usage.of(1, 1));
        return add(new Event.AssistantMessageReceived(m)).add(new Event.ToolCallStarted(toolUseId, "slow"));
    }

    Journals toolResult(String toolUseId) {
        return add(new Event.ToolCallCompleted(toolUseId, "done", false));
    }

    Journals toolFailed(String toolUseId) {
        return add(new Event.ToolCallFailed(toolUseId, "the process stopped"));
    }

    Journals completed() {
        return add(new Event.TurnCompleted("end_turn"));
    }

    Journals interrupted() {
        return add(new Event.TurnInterrupted("recovered"));
    }

    /** Makes the next event take {@code seq} (to build gaps and duplicates). */
    Journals skipTo(long seq) {
        next = seq;
        return this;
    }

    Journals add(Event e) {
        events.add(new StoredEvent(session, next, next, T0.plusMillis(next), command, CheckpointSource.LOOP, e));
        next++;
        return this;
    }

    List<StoredEvent> build() {
        return List.copyOf(events);
    }
}
