package dev.threadline.core.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.Usage;
import java.util.List;
import java.util.Map;

/**
 * A small snapshot of a {@link State}: everything but the message bodies. Written every K events so
 * that loading a session replays only the events after it (and reads only the transcript-bearing
 * events before it). A snapshot stored without {@code permissionDenials} reads it as 0, one without
 * {@code modelChange} as null (no model edit), one without {@code recalled} as none, one without
 * {@code budget} as null (the config's), one without {@code steered} as none. Immutable.
 */
public record StateSnapshot(long seq, long step, SessionStatus status, int messageCount,
                            Map<String, JsonNode> variables, List<PendingToolCall> pending, Usage usage,
                            int contextStart, Compaction compaction, Integer permissionDenials, Edit.SetModel modelChange,
                            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                            List<RecalledMessage> recalled, dev.threadline.core.state.Budget budget,
                            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                            List<dev.threadline.core.model.Message> steered) {
    @com.fasterxml.jackson.annotation.JsonCreator
    public StateSnapshot {
        recalled = recalled == null ? List.of() : List.copyOf(recalled);
        steered = steered == null ? List.of() : List.copyOf(steered);
        variables = variables == null ? Map.of() : Map.copyOf(variables);
        pending = pending == null ? List.of() : List.copyOf(pending);
        permissionDenials = permissionDenials == null ? 0 : permissionDenials; // boxed: absent from older snapshots
    }

    /** A snapshot with nothing steered (the shape before steering). */
    public StateSnapshot(long seq, long step, SessionStatus status, int messageCount, Map<String, JsonNode> variables,
                         List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction,
                         Integer permissionDenials, Edit.SetModel modelChange, List<RecalledMessage> recalled,
                         dev.threadline.core.state.Budget budget) {
        this(seq, step, status, messageCount, variables, pending, usage, contextStart, compaction, permissionDenials, modelChange,
                recalled, budget, List.of());
    }

    /** A snapshot without a budget set (the shape before session budgets). */
    public StateSnapshot(long seq, long step, SessionStatus status, int messageCount, Map<String, JsonNode> variables,
                         List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction,
                         Integer permissionDenials, Edit.SetModel modelChange, List<RecalledMessage> recalled) {
        this(seq, step, status, messageCount, variables, pending, usage, contextStart, compaction, permissionDenials, modelChange,
                recalled, null);
    }

    /** A snapshot that recalls nothing (the shape before recall, ADR 0042). */
    public StateSnapshot(long seq, long step, SessionStatus status, int messageCount, Map<String, JsonNode> variables,
                         List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction,
                         Integer permissionDenials, Edit.SetModel modelChange) {
        this(seq, step, status, messageCount, variables, pending, usage, contextStart, compaction, permissionDenials, modelChange,
                List.of());
    }

    /** A snapshot without a model edit (the shape before models could be changed). */
    public StateSnapshot(long seq, long step, SessionStatus status, int messageCount, Map<String, JsonNode> variables,
                         List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction,
                         Integer permissionDenials) {
        this(seq, step, status, messageCount, variables, pending, usage, contextStart, compaction, permissionDenials, null, List.of());
    }

    /** A snapshot without denials (the shape before humans in the loop). */
    public StateSnapshot(long seq, long step, SessionStatus status, int messageCount, Map<String, JsonNode> variables,
                         List<PendingToolCall> pending, Usage usage, int contextStart, Compaction compaction) {
        this(seq, step, status, messageCount, variables, pending, usage, contextStart, compaction, 0, null, List.of());
    }
}
