package dev.threadline.core.runtime;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.Checkpoint;
import java.util.ArrayList;
import java.util.List;

/** Derives the checkpoint list from a journal: one checkpoint per step, at the step's last event. */
final class Checkpoints {
    private static final int PREVIEW = 72;

    private Checkpoints() {}

    static List<Checkpoint> of(String sessionId, List<StoredEvent> journal) {
        List<Checkpoint> out = new ArrayList<>();
        int i = 0;
        while (i < journal.size()) {
            int j = i;
            long step = journal.get(i).step();
            while (j + 1 < journal.size() && journal.get(j + 1).step() == step) {
                j++;
            }
            List<StoredEvent> events = journal.subList(i, j + 1);
            StoredEvent last = events.get(events.size() - 1);
            out.add(new Checkpoint(sessionId, last.seq(), step, events.get(0).source(), last.time(), preview(events)));
            i = j + 1;
        }
        return out;
    }

    static String preview(List<StoredEvent> events) {
        List<String> parts = new ArrayList<>();
        for (StoredEvent se : events) {
            String p = switch (se.event()) {
                case Event.SessionCreated c -> "session created";
                case Event.BranchCreated b -> b.reason() + " of " + b.parentId() + " at seq " + b.parentSeq();
                case Event.UserMessageReceived u -> "user: " + u.message().text();
                case Event.AssistantMessageReceived a -> {
                    String text = a.message().text();
                    List<String> tools = a.message().toolUses().stream().map(t -> t.name()).toList();
                    yield "assistant: " + (tools.isEmpty() ? text : (text.isBlank() ? "" : text + " ") + "-> " + String.join(", ", tools));
                }
                case Event.ToolCallStarted s -> null;
                case Event.ToolCallCompleted c -> "result: " + c.content();
                case Event.ToolCallFailed f -> "failed: " + f.reason();
                case Event.ToolCallTimedOut t -> "timed out after " + t.timeoutMillis() + " ms";
                case Event.VariablesChanged v -> null;
                case Event.TurnCompleted t -> null;
                case Event.TurnInterrupted t -> "interrupted: " + t.reason();
                case Event.ContextCompacted c -> "context compacted: a summary replaces what precedes message " + c.boundary();
                case Event.Cleared c -> "context cleared";
            };
            if (p != null) {
                parts.add(p);
            }
        }
        String s = String.join(" | ", parts).replaceAll("\\s+", " ").strip();
        return s.length() <= PREVIEW ? s : s.substring(0, PREVIEW - 1) + "…";
    }
}
