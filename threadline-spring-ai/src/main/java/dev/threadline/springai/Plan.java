package dev.threadline.springai;

import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.MemoryStep;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides the events that turn a conversation's view into the list {@code saveAll} was given, appending
 * only what is new: an <b>append</b> (the view is a prefix of the list), a <b>slide</b> (a suffix of the
 * view is a prefix: a window evicted its oldest messages; the view's start moves), or else a
 * <b>rewrite</b> (a {@code Cleared} step, then the list as a new view; the old messages stay in the
 * journal). An assistant message with tool calls waits in a session variable until its tool response
 * comes (or the list moves on without one); then both are one step, so the session is idle after every
 * write. System messages are one session variable, written when they change. Pure.
 */
final class Plan {
    private final State state;
    private final View view;
    private final MemoryStep step;
    private final Set<String> batchIds = new HashSet<>();
    private Message open; // an assistant message with calls, stored ids, not yet in the journal
    private boolean openIsPending; // whether {@code open} is the view's pending message unchanged

    private Plan(State state, View view) {
        this.state = state;
        this.view = view;
        this.step = new MemoryStep(state, Vars.LAYOUT);
    }

    /**
     * The events that make the view equal to {@code wanted}.
     *
     * @throws IllegalArgumentException when a message cannot be stored, or a tool response does not follow
     *                                  the assistant message whose calls it answers
     */
    static List<Event> replace(State s, List<org.springframework.ai.chat.messages.Message> wanted) {
        return replace(s, wanted, View::of, null);
    }

    /**
     * As {@link #replace(State, List)}, with the view of {@code s} from {@code views}, and the wanted list's items
     * taken from {@code handed} (the view whose messages the caller read, or null) for the prefix it shares with
     * them, so that only the messages after it are converted.
     *
     * @throws IllegalArgumentException as {@link #replace(State, List)}
     */
    static List<Event> replace(State s, List<org.springframework.ai.chat.messages.Message> wanted, Function<State, View> views,
                               View handed) {
        View.Items known = handed == null ? null : handed.itemsOf(wanted);
        if (known != null) {
            return new Plan(s, views.apply(s)).to(known.items(), known.ordered());
        }
        List<Item> items = new ArrayList<>(wanted.size());
        for (var m : wanted) {
            items.add(SpringMessages.toItem(m));
        }
        return new Plan(s, views.apply(s)).to(items, 0);
    }

    private List<Event> to(List<Item> wanted, int ordered) {
        List<Message> conv = new ArrayList<>(wanted.size());
        List<Integer> sysBefore = new ArrayList<>();
        List<String> sysTexts = new ArrayList<>();
        for (int i = 0; i < wanted.size(); i++) {
            if (wanted.get(i) instanceof Item.Sys sys) {
                sysBefore.add(conv.size());
                sysTexts.add(sys.text());
            } else {
                Message m = ((Item.Msg) wanted.get(i)).message();
                conv.add(i < ordered ? m : inCallOrder(m, conv.isEmpty() ? null : conv.getLast()));
            }
        }
        List<Message> current = view.conversation();
        int n = current.size();
        int k = n == 0 ? 0 : MemoryStep.slide(current, conv, MemoryStep.Matcher.equal());
        boolean rewrite = k < 0;
        int kept = rewrite ? 0 : n - k;
        int pos = state.messages().size();
        int newStart = kept == 0 ? pos : view.at().get(k);
        if (rewrite && state.contextStart() < pos) {
            step.add(new Event.Cleared());
        }
        if (view.pending() != null) {
            view.pending().toolUses().forEach(u -> batchIds.add(u.id()));
            if (kept > 0) {
                open = view.pending();
                openIsPending = true;
            } else {
                step.set(Vars.LAYOUT.pendingVariable(), null);
            }
        }
        List<Integer> at = new ArrayList<>(conv.size());
        if (kept > 0) {
            at.addAll(view.at().subList(k, k + kept));
        }
        for (int j = kept; j < conv.size(); j++) {
            Message m = conv.get(j);
            if (m.role() == Role.TOOL) {
                if (open == null) {
                    throw new IllegalArgumentException("the tool response for " + m.toolResults().stream().map(r -> CallIds.decode(r.toolUseId())).toList()
                            + " does not follow the assistant message with those tool calls; Threadline keeps calls and responses paired");
                }
                at.add(pos + 1);
                commitOpen(m);
                pos += 2;
                continue;
            }
            if (open != null) {
                commitOpen(null);
                pos += 2;
            }
            at.add(pos);
            if (m.role() == Role.USER) {
                step.addMessage(new Event.UserMessageReceived(m));
                pos++;
            } else if (m.toolUses().isEmpty()) {
                step.addMessage(new Event.AssistantMessageReceived(m));
                pos++;
            } else {
                open = withStoredIds(m);
                openIsPending = false;
            }
        }
        if (open != null && !openIsPending) {
            step.set(Vars.LAYOUT.pendingVariable(), Json.tree(open));
        }
        int end = pos + (open != null ? 2 : 0);
        return step.place(newStart, sysBefore, sysTexts, at, end).finish();
    }

    /** A tool message's results in the order of the calls of the assistant message before it. */
    static Message inCallOrder(Message m, Message previous) {
        if (m.role() != Role.TOOL || previous == null || previous.toolUses().isEmpty()) {
            return m;
        }
        List<String> order = previous.toolUses().stream().map(ContentBlock.ToolUse::id).toList();
        List<ContentBlock.ToolResult> sorted = new ArrayList<>(m.toolResults());
        sorted.sort((a, b) -> Integer.compare(rank(order, a.toolUseId()), rank(order, b.toolUseId())));
        return Message.toolResults(sorted);
    }

    private static int rank(List<String> order, String id) {
        int i = order.indexOf(id);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    private Message withStoredIds(Message m) {
        List<ContentBlock> blocks = new ArrayList<>(m.content().size());
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.ToolUse u) {
                String stored = CallIds.encode(CallIds.decode(u.id()),
                        x -> batchIds.contains(x) || state.toolUseIds().messageIndexOf(x) >= 0);
                batchIds.add(stored);
                blocks.add(new ContentBlock.ToolUse(stored, u.name(), u.input()));
            } else {
                blocks.add(b);
            }
        }
        return new Message(m.role(), blocks, m.stopReason(), m.usage());
    }

    /** Writes the open assistant message and its results: those in {@code response}, the rest unanswered. */
    private void commitOpen(Message response) {
        step.addMessage(new Event.AssistantMessageReceived(open));
        Map<String, ContentBlock.ToolResult> byNeutralId = new HashMap<>();
        if (response != null) {
            for (ContentBlock.ToolResult r : response.toolResults()) {
                if (byNeutralId.put(r.toolUseId(), r) != null) {
                    throw new IllegalArgumentException("the tool response answers call " + CallIds.decode(r.toolUseId()) + " twice");
                }
            }
        }
        for (ContentBlock.ToolUse u : open.toolUses()) {
            ContentBlock.ToolResult r = byNeutralId.remove(CallIds.neutral(CallIds.decode(u.id())));
            step.add(r == null ? new Event.ToolCallFailed(u.id(), Vars.UNANSWERED)
                    : new Event.ToolCallCompleted(u.id(), r.content(), r.isError()));
        }
        if (!byNeutralId.isEmpty()) {
            throw new IllegalArgumentException("the tool response answers calls " + byNeutralId.keySet().stream().map(CallIds::decode).toList()
                    + " that the assistant message before it did not make");
        }
        if (openIsPending) {
            step.set(Vars.LAYOUT.pendingVariable(), null);
        }
        open = null;
        openIsPending = false;
    }
}
