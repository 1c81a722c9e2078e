package dev.threadline.core.internal.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import java.util.HashMap;
import java.util.Map;

/**
 * The reducer's rules for {@code StateEdited}: edits happen between turns only, and each must keep the
 * invariants: variables only in journalled scopes, and appended messages that a model view can hold
 * as they are (no tool message, no tool_use no turn would answer, no empty message or blank text, no
 * other message before the context's first user message), and a model edit changes the model the
 * session runs on from then on. The status is never edited. The step is
 * checked as a whole; one bad edit refuses it all. Pure.
 */
final class EditRules {
    private EditRules() {}

    static State apply(State s, Event.StateEdited e) {
        if (!s.isIdle() || !s.pending().isEmpty()) {
            throw new InvalidEventException(e.type(), "the session is " + s.status().wireName() + ": state is edited between turns"
                    + (s.isSuspended() ? " (approve, deny or answer the waiting calls first, or send a new message)" : ""));
        }
        State next = s;
        Map<String, JsonNode> vars = null;
        for (int i = 0; i < e.edits().size(); i++) {
            Edit edit = e.edits().get(i);
            String where = "edit " + (i + 1) + " of " + e.edits().size() + ": ";
            switch (edit) {
                case Edit.SetVariable v -> {
                    if (journalled(e, where, v.scope())) {
                        vars = vars == null ? new HashMap<>(next.variables()) : vars;
                        vars.put(v.name(), v.value());
                    }
                }
                case Edit.RemoveVariable v -> {
                    if (journalled(e, where, v.scope())) {
                        vars = vars == null ? new HashMap<>(next.variables()) : vars;
                        vars.remove(v.name());
                    }
                }
                case Edit.AppendMessage a -> {
                    check(next, e, where, a.message());
                    next = next.withMessage(a.message(), next.status(), next.pending(), next.usage());
                }
                case Edit.SetModel m -> next = next.withModelChange(m);
            }
        }
        return vars == null ? next : next.with(next.seq(), next.step(), next.status(), vars, next.pending(), next.usage(),
                next.contextStart(), next.compaction());
    }

    /** Loading before a snapshot: only the appended messages matter (they were checked when recorded). */
    static State transcriptOnly(State s, Event.StateEdited e) {
        State next = s;
        for (Edit edit : e.edits()) {
            if (edit instanceof Edit.AppendMessage a) {
                next = next.withMessage(a.message(), next.status(), next.pending(), next.usage());
            }
        }
        return next;
    }

    /** True for the session scope (folded here); user and app scopes live in the store's shared tables. */
    private static boolean journalled(Event e, String where, VariableScope scope) {
        if (scope == VariableScope.TEMP) {
            throw new InvalidEventException(e.type(), where + "temp variables live only inside a turn and are never journalled;"
                    + " use the session, user or app scope");
        }
        return scope == VariableScope.SESSION;
    }

    private static void check(State s, Event e, String where, Message m) {
        if (m.role() == Role.TOOL || !m.toolResults().isEmpty()) {
            throw new InvalidEventException(e.type(), where + "a tool message answers tool calls of a turn; it cannot be"
                    + " appended by hand");
        }
        if (!m.toolUses().isEmpty()) {
            throw new InvalidEventException(e.type(), where + "an assistant message with tool_use " + m.toolUses().stream()
                    .map(ContentBlock.ToolUse::id).toList() + " outside a turn would leave the calls unanswered");
        }
        if (m.content().isEmpty() || m.content().stream().anyMatch(b -> b instanceof ContentBlock.Text t && t.text().isBlank())) {
            throw new InvalidEventException(e.type(), where + "the " + m.role().wireName()
                    + " message is empty or holds blank text, which providers refuse");
        }
        if (m.role() != Role.USER && s.messages().subList(s.contextStart(), s.messages().size()).stream()
                .noneMatch(x -> x.role() == Role.USER)) {
            throw new InvalidEventException(e.type(), where + "the model's context starts with a user message; a "
                    + m.role().wireName() + " message cannot come before it (put instructions in the first user message)");
        }
    }
}
