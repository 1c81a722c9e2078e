package dev.threadline.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.MemoryStep;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides the events that turn a session's memory view into a wanted list of messages, appending only
 * what is new. Three cases, tried in order:
 * <ol>
 *   <li><b>append</b>: the view is a prefix of the list (the pending tool-call group may gain results):
 *       only the new messages are appended;</li>
 *   <li><b>slide</b>: a suffix of the view is a prefix of the list (a window memory evicted its oldest
 *       messages): the view's start moves (one small variable write) and the new messages are appended;</li>
 *   <li><b>rewrite</b>: anything else (an edit in the middle, a lost update of a caller that wrote a stale
 *       list): a {@code Cleared} step, then the whole list appended as a new view. Nothing is deleted: the
 *       old messages stay in the journal, before the clear.</li>
 * </ol>
 * System messages are not transcript messages: their texts and places are one session variable, written
 * only when they change. A tool-call group waits in session variables until each call has its result
 * (or the list moves on without one); then the AI message and its results are one step, so the session
 * is idle after every write. Pure: a function of the state and the wanted list.
 */
final class Plan {
    /** The result text the memory records for a call left unanswered when the conversation moves on. */
    static final String NO_RESULT = "no result was recorded for this tool call";

    private final State state;
    private final View view;
    private final MemoryStep step;
    private final Set<String> batchIds = new HashSet<>();

    private Plan(State state, View view) {
        this.state = state;
        this.view = view;
        this.step = new MemoryStep(state, Vars.LAYOUT);
    }

    /**
     * The events that make the view equal to {@code wanted} (empty when it already is).
     *
     * @throws IllegalArgumentException when a message cannot be stored (see {@link Units#parse})
     */
    static List<Event> replace(State s, List<ChatMessage> wanted) {
        return replace(s, wanted, View::of, null);
    }

    /**
     * As {@link #replace(State, List)}, with the view of {@code s} from {@code views}, and the wanted list's units
     * taken from {@code handed} (the view whose messages the caller read, or null) for the prefix it shares with
     * them, so that only the messages after it are parsed.
     *
     * @throws IllegalArgumentException as {@link #replace(State, List)}
     */
    static List<Event> replace(State s, List<ChatMessage> wanted, Function<State, View> views, View handed) {
        View v = views.apply(s);
        List<Unit> units = handed == null ? null : handed.parsedFrom(wanted);
        return new Plan(s, v).to(units != null ? units : Units.parse(wanted));
    }

    /**
     * The events that append {@code added} to the view, as a chat memory adds them: a system message equal
     * to one in the view is skipped, a different one replaces it (first or last); a message other than a
     * tool result closes the calls the last AI message left unanswered with an error result.
     *
     * @throws IllegalArgumentException when a message cannot be stored or a tool result answers no open call
     */
    static List<Event> append(State s, List<ChatMessage> added, boolean systemFirst) {
        return append(s, added, systemFirst, View::of);
    }

    /**
     * As {@link #append(State, List, boolean)}, with the view of {@code s} from {@code views}.
     *
     * @throws IllegalArgumentException as {@link #append(State, List, boolean)}
     */
    static List<Event> append(State s, List<ChatMessage> added, boolean systemFirst, Function<State, View> views) {
        if (!s.variables().containsKey(Vars.LAYOUT.pendingVariable()) && s.variables().containsKey(Vars.LAYOUT.startVariable())
                && added.stream().allMatch(m -> m instanceof UserMessage || m instanceof AiMessage a && !a.hasToolExecutionRequests())) {
            return plainAppend(added); // the common case costs the new messages only, not a read of the view
        }
        View v = views.apply(s);
        List<Unit> units = new ArrayList<>(v.units());
        for (ChatMessage m : added) {
            if (m instanceof SystemMessage sm) {
                Unit.Sys sys = new Unit.Sys(SystemMessage.from(sm.text()));
                if (units.contains(sys)) {
                    continue;
                }
                units.removeIf(u -> u instanceof Unit.Sys);
                if (systemFirst) {
                    units.addFirst(sys);
                } else {
                    units.add(sys);
                }
                continue;
            }
            if (!(m instanceof ToolExecutionResultMessage)) {
                closeOpenCalls(units);
            }
            Units.add(units, m);
        }
        return new Plan(s, v).to(units);
    }

    /**
     * User and AI messages without tool requests, appended when nothing waits for a tool result: the
     * system messages' places are offsets that the new messages do not move.
     */
    private static List<Event> plainAppend(List<ChatMessage> added) {
        List<Event> events = new ArrayList<>(added.size() + 1);
        for (ChatMessage m : added) {
            events.add(m instanceof UserMessage u ? new Event.UserMessageReceived(Messages.user(u))
                    : new Event.AssistantMessageReceived(Messages.ai((AiMessage) m, id -> id)));
        }
        events.add(new Event.TurnCompleted(Vars.LAYOUT.turnReason()));
        return events;
    }

    /** The events that empty the view (none when it is empty); the history stays in the journal. */
    static List<Event> clear(State s) {
        return clear(s, View::of);
    }

    /** As {@link #clear(State)}, with the view of {@code s} from {@code views}. */
    static List<Event> clear(State s, Function<State, View> views) {
        View v = views.apply(s);
        boolean empty = v.conversation().isEmpty() && v.systems().isEmpty();
        return new MemoryStep(s, Vars.LAYOUT).clear(empty, v.pending() == null ? 0 : v.pending().toolUses().size());
    }

    private static void closeOpenCalls(List<Unit> units) {
        for (int i = units.size() - 1; i >= 0; i--) {
            if (units.get(i) instanceof Unit.Sys) {
                continue;
            }
            if (units.get(i) instanceof Unit.Group g && !g.complete()) {
                for (int c = 0; c < g.results().size(); c++) {
                    if (g.results().get(c) == null) {
                        ToolExecutionRequest r = g.ai().toolExecutionRequests().get(c);
                        g = g.with(c, Messages.toResult(r.id(), r.name(), "error: " + NO_RESULT, true));
                    }
                }
                units.set(i, g);
            }
            return;
        }
    }

    private List<Event> to(List<Unit> wanted) {
        List<Unit> conv = new ArrayList<>(wanted.size());
        List<Integer> sysBefore = new ArrayList<>();
        List<String> sysTexts = new ArrayList<>();
        for (Unit u : wanted) {
            if (u instanceof Unit.Sys sys) {
                sysBefore.add(conv.size());
                sysTexts.add(sys.message().text());
            } else {
                conv.add(u);
            }
        }
        List<Unit> current = view.conversation();
        int n = current.size();
        boolean pending = view.pending() != null;
        int k = n == 0 ? 0 : MemoryStep.slide(current, conv,
                (i, a, b) -> i == n - 1 && pending ? ((Unit.Group) a).extendedBy(b) : a.equals(b));
        boolean rewrite = k < 0;
        int kept = rewrite ? 0 : n - k;
        int pos = state.messages().size();
        int newStart = kept == 0 ? pos : view.at().get(k);
        if (rewrite && state.contextStart() < pos) {
            step.add(new Event.Cleared());
        }
        List<Integer> at = new ArrayList<>(conv.size());
        if (kept > 0) {
            at.addAll(view.at().subList(k, k + kept));
        }
        boolean stillPending = false;
        if (view.pending() != null) {
            view.pending().toolUses().forEach(u -> batchIds.add(u.id()));
            if (kept == 0) {
                dropPending();
            } else {
                Unit.Group merged = (Unit.Group) conv.get(kept - 1);
                if (merged.complete() || conv.size() > kept) {
                    commitGroup(view.pending(), merged);
                    dropPending();
                    pos += 2;
                } else {
                    stillPending = true;
                    recordPendingResults(view.pending(), view.pendingGroup(), merged);
                }
            }
        }
        for (int j = kept; j < conv.size(); j++) {
            at.add(pos);
            switch (conv.get(j)) {
                case Unit.Plain(UserMessage u) -> {
                    step.addMessage(new Event.UserMessageReceived(Messages.user(u)));
                    pos++;
                }
                case Unit.Plain(AiMessage a) -> {
                    step.addMessage(new Event.AssistantMessageReceived(Messages.ai(a, id -> id)));
                    pos++;
                }
                case Unit.Group g -> {
                    Message stored = Messages.ai(g.ai(), this::newId);
                    if (j == conv.size() - 1 && !g.complete()) {
                        stillPending = true;
                        step.set(Vars.LAYOUT.pendingVariable(), Json.tree(stored));
                        recordPendingResults(stored, Unit.Group.open(g.ai()), g);
                    } else {
                        commitGroup(stored, g);
                        pos += 2;
                    }
                }
                default -> throw new IllegalStateException("unexpected unit " + conv.get(j));
            }
        }
        int end = pos + (stillPending ? 2 : 0);
        return step.place(newStart, sysBefore, sysTexts, at, end).finish();
    }

    private String newId(String id) {
        String stored = CallIds.encode(id, x -> batchIds.contains(x) || state.toolUseIds().messageIndexOf(x) >= 0);
        batchIds.add(stored);
        return stored;
    }

    private void commitGroup(Message stored, Unit.Group g) {
        step.addMessage(new Event.AssistantMessageReceived(stored));
        List<ContentBlock.ToolUse> calls = stored.toolUses();
        for (int c = 0; c < calls.size(); c++) {
            ToolExecutionResultMessage r = g.results().get(c);
            step.add(r == null ? new Event.ToolCallFailed(calls.get(c).id(), Vars.UNANSWERED)
                    : new Event.ToolCallCompleted(calls.get(c).id(), r.text(), Boolean.TRUE.equals(r.isError())));
        }
    }

    private void recordPendingResults(Message stored, Unit.Group before, Unit.Group after) {
        List<ContentBlock.ToolUse> calls = stored.toolUses();
        for (int c = 0; c < calls.size(); c++) {
            ToolExecutionResultMessage r = after.results().get(c);
            if (r != null && before.results().get(c) == null) {
                step.set(Vars.LAYOUT.pendingResultVariable(c), Json.tree(new ContentBlock.ToolResult(calls.get(c).id(), r.text(),
                        Boolean.TRUE.equals(r.isError()))));
            }
        }
    }

    private void dropPending() {
        if (view.pending() != null) {
            step.dropPending(view.pending().toolUses().size());
        }
    }
}
