package dev.threadline.core.internal.engine;

import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.runtime.PageRequest;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.event.Checkpoint;
import java.util.ArrayList;
import java.util.List;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;

/**
 * Derives checkpoints from a journal: one checkpoint per step, at the step's last event. A page of them
 * is read from a window of the journal around the cursor, widened until it holds the page, so a long
 * session's timeline is never read whole to show one page. Stateless.
 */
public final class Checkpoints {
    private static final int PREVIEW = 72;

    private Checkpoints() {}

    /** One page of the session's checkpoints (see {@link PageRequest}), oldest first within the page. */
    public static Page<Checkpoint> page(SessionKey key, JournalReader store, PageRequest page) {
        long head = store.head(key);
        long first = store.firstSeq(key); // 1, or past a pruned history's base (ADR 0045)
        int limit = page.limit();
        long window = Math.max(64, 4L * limit);
        while (true) {
            long from = page.backwards() ? Math.max(first, Math.min(head, page.before() - 1) - window + 1)
                    : Math.max(first, page.after() + 1);
            long to = page.backwards() ? Math.min(head, page.before() - 1) : Math.min(head, page.after() + window);
            if (to < from) {
                return new Page<>(List.of(), null);
            }
            List<Checkpoint> all = within(key, store, from, to, head, first);
            if (page.backwards() && (all.size() > limit || from == first)) {
                List<Checkpoint> items = all.subList(Math.max(0, all.size() - limit), all.size());
                return new Page<>(items, all.size() > limit ? String.valueOf(items.get(0).seq()) : null);
            }
            if (!page.backwards() && (all.size() > limit || to == head)) {
                List<Checkpoint> items = all.subList(0, Math.min(limit, all.size()));
                return new Page<>(items, all.size() > limit ? String.valueOf(items.get(items.size() - 1).seq()) : null);
            }
            window *= 4;
        }
    }

    /**
     * The checkpoints with {@code from <= seq <= to}, each with its whole step: the read starts early
     * enough to hold the beginning of the step that {@code from} is in, and one event past {@code to}
     * tells whether the step at {@code to} ends there.
     */
    private static List<Checkpoint> within(SessionKey key, JournalReader store, long from, long to, long head, long first) {
        long readTo = Math.min(head, to + 1);
        long back = 1;
        List<StoredEvent> events;
        while (true) {
            long readFrom = Math.max(first, from - back);
            events = store.read(key, readFrom, readTo);
            if (readFrom == first || events.get(0).step() != events.get((int) (from - readFrom)).step()) {
                break;
            }
            back *= 4;
        }
        List<Checkpoint> cps = new ArrayList<>(of(key.id(), events));
        cps.removeIf(c -> c.seq() < from || c.seq() > to);
        return cps;
    }

    public static List<Checkpoint> of(String sessionId, List<StoredEvent> journal) {
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

    public static String preview(List<StoredEvent> events) {
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
                case Event.MessageSteered m -> "steered: " + m.message().text();
                case Event.SteeringDelivered d -> null;
                case Event.BudgetSet b -> "budget set: " + (b.budget().tokens() == 0 ? "unlimited" : b.budget().tokens()) + " tokens, "
                        + (b.budget().costMicros() == 0 ? "unlimited" : dev.threadline.core.state.Budget.amount(b.budget().costMicros())) + " in cost";
                case Event.ContextRecalled r -> r.messages().isEmpty() ? "context recalls nothing"
                        : "context recalled seqs " + r.messages().stream().map(m -> String.valueOf(m.seq())).toList();
                case Event.ApprovalRequested r -> "approval requested: " + r.name() + " " + r.arguments();
                case Event.ApprovalGiven g -> "approved" + (g.arguments() == null ? "" : " with edited arguments " + g.arguments());
                case Event.ApprovalDenied d -> "denied: " + d.reason();
                case Event.InputRequested r -> "question: " + r.question();
                case Event.InputGiven g -> "answer: " + g.answer();
                case Event.TurnSuspended t -> "suspended: " + t.reason();
                case Event.StateEdited e -> "edited by " + e.author() + (e.reason().isBlank() ? "" : " (" + e.reason() + ")")
                        + ": " + e.edits().size() + " edit(s)";
                case Event.EffectCompensated c -> (c.error() ? "compensation failed: " : "compensated: ") + c.name() + " " + c.outcome();
                case Event.TurnRolledBack r -> "rolled back to seq " + r.toSeq() + " (kept on " + r.sideBranch() + ")";
            };
            if (p != null) {
                parts.add(p);
            }
        }
        String s = String.join(" | ", parts).replaceAll("\\s+", " ").strip();
        return s.length() <= PREVIEW ? s : s.substring(0, PREVIEW - 1) + "…";
    }
}
