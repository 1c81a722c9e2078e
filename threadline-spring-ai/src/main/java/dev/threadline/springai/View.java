package dev.threadline.springai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.Interleaving;
import dev.threadline.chatmemory.SystemPlacement;
import dev.threadline.chatmemory.ViewCache;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.SystemMessage;

/**
 * A conversation's view of a session as of one state: the transcript from the view's start (a view may start at a
 * tool message whose calls a window evicted), then the pending assistant message, with the system messages placed
 * among them. Results recorded as {@link Vars#UNANSWERED} are not part of it. Built from the view of an earlier
 * state of the same session when it can be ({@link #of(State, View)}): the entries of the transcript messages both
 * states hold, the very same objects, are reused, so a step converts only what is new. Immutable (its derived lists
 * are computed once).
 */
final class View {
    private final int start;
    private final List<Message> conversation; // neutral, one per entry
    private final List<org.springframework.ai.chat.messages.Message> spring; // as handed out, one per entry
    private final List<Integer> at;
    private final List<SystemPlacement> systems;
    private final List<SystemMessage> systemMessages;
    private final Message pending;
    private final State state;
    private final int transcriptEntries;
    private final boolean canonical;
    private final Interleaving<org.springframework.ai.chat.messages.Message> handed;
    private final Interleaving<Item> handedItems;

    private View(int start, List<Message> conversation, List<org.springframework.ai.chat.messages.Message> spring, List<Integer> at,
                 List<SystemPlacement> systems, List<SystemMessage> systemMessages, Message pending, State state, int transcriptEntries,
                 boolean canonical, View prev, int keep) {
        this.start = start;
        this.conversation = conversation;
        this.spring = spring;
        this.at = at;
        this.systems = systems;
        this.systemMessages = systemMessages;
        this.pending = pending;
        this.state = state;
        this.transcriptEntries = transcriptEntries;
        this.canonical = canonical;
        this.handed = Interleaving.build(prev == null ? null : prev.handed, keep, start, at, systems, (i, out) -> out.add(spring.get(i)),
                systemMessages::get);
        this.handedItems = Interleaving.build(prev == null ? null : prev.handedItems, keep, start, at, systems,
                (i, out) -> out.add(new Item.Msg(conversation.get(i))), n -> new Item.Sys(systems.get(n).text()));
    }

    static View of(State s) {
        return of(s, null);
    }

    /**
     * The view of {@code s}, reusing the entries of {@code prev} (a view of an earlier state of the same session, or
     * null) for the transcript messages both states hold as the same objects, from the same start.
     */
    static View of(State s, View prev) {
        if (prev != null && prev.state == s) {
            return prev;
        }
        Map<String, JsonNode> vars = s.variables();
        List<Message> transcript = s.messages();
        int start = Vars.LAYOUT.start(s);
        List<Message> items = new ArrayList<>();
        List<org.springframework.ai.chat.messages.Message> spring = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        int from = start;
        int keep = 0;
        boolean canonical = true;
        if (prev != null && prev.start == start
                && ViewCache.sameObjects(prev.state.messages(), transcript, start, prev.state.messages().size())) {
            items.addAll(prev.conversation.subList(0, prev.transcriptEntries)); // each depends on its message and the one before
            spring.addAll(prev.spring.subList(0, prev.transcriptEntries));
            at.addAll(prev.at.subList(0, prev.transcriptEntries));
            from = Math.max(start, prev.state.messages().size());
            keep = prev.transcriptEntries;
            canonical = prev.canonical;
        }
        for (int i = from; i < transcript.size(); i++) {
            Message m = transcript.get(i);
            if (m.role() == Role.TOOL) {
                List<ContentBlock.ToolResult> kept = m.toolResults().stream()
                        .filter(r -> !(r.isError() && r.content().equals("error: " + Vars.UNANSWERED))).toList();
                if (kept.isEmpty()) {
                    continue;
                }
                m = Message.toolResults(kept);
            }
            canonical = add(items, spring, neutral(m), SpringMessages.toSpring(m, m.role() == Role.TOOL && i > 0 ? transcript.get(i - 1) : null),
                    canonical);
            at.add(i);
        }
        int transcriptEntries = items.size();
        String pendingVariable = Vars.LAYOUT.pendingVariable();
        Message pending = vars.containsKey(pendingVariable) ? Json.convert(vars.get(pendingVariable), Message.class) : null;
        if (pending != null) {
            canonical = add(items, spring, neutral(pending), SpringMessages.toSpring(pending, null), canonical);
            at.add(transcript.size());
        }
        List<SystemPlacement> systems = Vars.LAYOUT.systems(s);
        return new View(start, Collections.unmodifiableList(items), Collections.unmodifiableList(spring), Collections.unmodifiableList(at),
                systems, systemMessages(systems, prev), pending, s, transcriptEntries, canonical, keep > 0 ? prev : null, keep);
    }

    /**
     * Adds an entry; returns whether the view's entries so far read back as themselves: the entry is what
     * {@link Plan} makes of its Spring AI message, after the entry before it (the premise of {@link #itemsOf}).
     */
    private static boolean add(List<Message> items, List<org.springframework.ai.chat.messages.Message> spring, Message neutral,
                               org.springframework.ai.chat.messages.Message asSpring, boolean canonical) {
        SpringMessages.CONVERSIONS.increment();
        boolean same = false;
        if (canonical) {
            try {
                same = Plan.inCallOrder(((Item.Msg) SpringMessages.toItem(asSpring)).message(), items.isEmpty() ? null : items.getLast())
                        .equals(neutral);
            } catch (IllegalArgumentException e) {
                same = false;
            }
        }
        items.add(neutral);
        spring.add(asSpring);
        return same;
    }

    /** The system messages' objects: those of {@code prev} for the same texts, so a list handed out keeps them. */
    private static List<SystemMessage> systemMessages(List<SystemPlacement> systems, View prev) {
        Map<String, SystemMessage> known = new HashMap<>();
        if (prev != null) {
            prev.systemMessages.forEach(m -> known.put(m.getText(), m));
        }
        List<SystemMessage> out = new ArrayList<>(systems.size());
        for (SystemPlacement p : systems) {
            out.add(known.computeIfAbsent(p.text(), SystemMessage::new));
        }
        return List.copyOf(out);
    }

    /**
     * A stored message as a framework message maps to: tool ids as the framework gave them, text blocks
     * joined into one, nothing Spring AI does not carry (thinking, images, usage).
     */
    static Message neutral(Message m) {
        List<ContentBlock> blocks = new ArrayList<>(m.content().size());
        boolean text = m.content().stream().anyMatch(b -> b instanceof ContentBlock.Text);
        if (text) {
            blocks.add(ContentBlock.text(m.text()));
        }
        for (ContentBlock b : m.content()) {
            switch (b) {
                case ContentBlock.ToolUse u -> blocks.add(new ContentBlock.ToolUse(CallIds.neutral(CallIds.decode(u.id())), u.name(), u.input()));
                case ContentBlock.ToolResult r -> blocks.add(new ContentBlock.ToolResult(CallIds.neutral(CallIds.decode(r.toolUseId())),
                        r.content(), false)); // Spring AI carries no error flag
                default -> { }
            }
        }
        if (m.role() == Role.ASSISTANT) {
            return Message.assistant(blocks, m.toolUses().isEmpty() ? StopReason.END_TURN : StopReason.TOOL_USE, Usage.ZERO);
        }
        return new Message(m.role(), blocks, null, null);
    }

    int start() {
        return start;
    }

    /** The neutral messages other than system messages, in order. */
    List<Message> conversation() {
        return conversation;
    }

    /** The transcript index of each (the pending message's is the transcript size). */
    List<Integer> at() {
        return at;
    }

    /** The system messages with their offsets from {@link #start()}. */
    List<SystemPlacement> systems() {
        return systems;
    }

    /** The pending assistant message as stored, or null. */
    Message pending() {
        return pending;
    }

    /** The view as Spring AI messages (a new list; the same message objects every time). */
    List<org.springframework.ai.chat.messages.Message> messages() {
        return new ArrayList<>(handed.entries());
    }

    /**
     * The items of {@code wanted} when it starts with this view's messages, the same objects (a window memory handing
     * back the list it read, plus what it added): this view's entries, already in call order, then the rest
     * converted. Null when it does not (or this view's entries do not read back as themselves).
     *
     * @throws IllegalArgumentException as {@link SpringMessages#toItem} does, for the messages after the prefix
     */
    Items itemsOf(List<org.springframework.ai.chat.messages.Message> wanted) {
        if (!canonical) {
            return null;
        }
        List<org.springframework.ai.chat.messages.Message> mine = handed.entries();
        if (!ViewCache.sameObjects(mine, wanted, 0, mine.size())) {
            return null;
        }
        List<Item> out = new ArrayList<>(wanted.size());
        out.addAll(handedItems.entries());
        for (int i = mine.size(); i < wanted.size(); i++) {
            out.add(SpringMessages.toItem(wanted.get(i)));
        }
        return new Items(out, mine.size());
    }

    /**
     * The items of a wanted list; the first {@code ordered} of them already as {@link Plan} orders a tool message's
     * results.
     */
    record Items(List<Item> items, int ordered) {}
}
