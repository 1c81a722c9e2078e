package dev.threadline.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.Interleaving;
import dev.threadline.chatmemory.SystemPlacement;
import dev.threadline.chatmemory.ViewCache;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A memory's view of a session, as of one state: the transcript from the view's start, then the pending
 * tool-call group, with the system messages placed among them. Built from the view of an earlier state of the
 * same session when it can be ({@link #of(State, View)}): the units of the messages both states hold, the very
 * same objects, are reused, so a step converts only what is new, and its interleavings with the system messages
 * continue the earlier view's. Immutable.
 */
final class View {
    private final int start;
    private final List<Unit> conversation;
    private final List<Integer> at;
    private final List<SystemPlacement> systems;
    private final List<SystemMessage> systemMessages;
    private final Message pending;
    private final State state;
    private final int transcriptUnits;
    private final boolean canonical;
    private final Interleaving<Unit> units;
    private final Interleaving<ChatMessage> handed;

    private View(int start, List<Unit> conversation, List<Integer> at, List<SystemPlacement> systems,
                 List<SystemMessage> systemMessages, Message pending, State state, int transcriptUnits, boolean canonical,
                 View prev, int keep) {
        this.start = start;
        this.conversation = conversation;
        this.at = at;
        this.systems = systems;
        this.systemMessages = systemMessages;
        this.pending = pending;
        this.state = state;
        this.transcriptUnits = transcriptUnits;
        this.canonical = canonical;
        Interleaving<Unit> prevUnits = prev == null ? null : prev.units;
        Interleaving<ChatMessage> prevHanded = prev == null ? null : prev.handed;
        this.units = Interleaving.build(prevUnits, keep, start, at, systems, (i, out) -> out.add(conversation.get(i)),
                n -> new Unit.Sys(systemMessages.get(n)));
        this.handed = Interleaving.build(prevHanded, keep, start, at, systems, (i, out) -> {
            switch (conversation.get(i)) {
                case Unit.Plain p -> out.add(p.message());
                case Unit.Group g -> out.addAll(g.messages());
                case Unit.Sys sys -> out.add(sys.message());
            }
        }, systemMessages::get);
    }

    static View of(State s) {
        return of(s, null);
    }

    /**
     * The view of {@code s}, reusing the units of {@code prev} (a view of an earlier state of the same session, or
     * null) for the transcript messages both states hold as the same objects, from the same start.
     */
    static View of(State s, View prev) {
        if (prev != null && prev.state == s) {
            return prev;
        }
        Map<String, JsonNode> vars = s.variables();
        List<Message> transcript = s.messages();
        int start = Vars.LAYOUT.start(s);
        List<Unit> units = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        int from = start;
        int keep = 0;
        boolean canonical = true;
        if (prev != null && prev.start == start && prev.transcriptUnits > 1
                && ViewCache.sameObjects(prev.state.messages(), transcript, start, prev.state.messages().size())) {
            keep = prev.transcriptUnits - 1; // the last one may gain its results in a later message
            units.addAll(prev.conversation.subList(0, keep));
            at.addAll(prev.at.subList(0, keep));
            from = prev.at.get(keep);
            canonical = prev.canonical;
        }
        int reused = units.size();
        for (int i = from; i < transcript.size(); i++) {
            Message m = transcript.get(i);
            if (m.role() == Role.USER) {
                units.add(new Unit.Plain(Messages.toUser(m)));
                at.add(i);
            } else if (m.role() == Role.ASSISTANT && m.toolUses().isEmpty()) {
                units.add(new Unit.Plain(Messages.toAi(m)));
                at.add(i);
            } else if (m.role() == Role.ASSISTANT) {
                Message results = i + 1 < transcript.size() && transcript.get(i + 1).role() == Role.TOOL ? transcript.get(i + 1) : null;
                units.add(group(m, results == null ? List.of() : results.toolResults()));
                at.add(i);
                if (results != null) {
                    i++;
                }
            } // a tool message without its call before it (a view cut by hand) is not part of the view
        }
        int transcriptUnits = units.size();
        Message pending = null;
        if (vars.containsKey(Vars.LAYOUT.pendingVariable())) {
            pending = Json.convert(vars.get(Vars.LAYOUT.pendingVariable()), Message.class);
            List<ContentBlock.ToolResult> results = new ArrayList<>();
            for (int c = 0; c < pending.toolUses().size(); c++) {
                JsonNode r = vars.get(Vars.LAYOUT.pendingResultVariable(c));
                if (r != null) {
                    results.add(Json.convert(r, ContentBlock.ToolResult.class));
                }
            }
            units.add(group(pending, results));
            at.add(transcript.size());
        }
        for (int u = reused; u < units.size() && canonical; u++) {
            canonical = roundTrips(units.get(u));
        }
        List<SystemPlacement> systems = Vars.LAYOUT.systems(s);
        return new View(start, Collections.unmodifiableList(units), Collections.unmodifiableList(at), systems,
                systemMessages(systems, prev), pending, s, transcriptUnits, canonical, keep > 0 ? prev : null, keep);
    }

    /** The system messages' objects: those of {@code prev} for the same texts, so a list handed out keeps them. */
    private static List<SystemMessage> systemMessages(List<SystemPlacement> systems, View prev) {
        Map<String, SystemMessage> known = new HashMap<>();
        if (prev != null) {
            prev.systemMessages.forEach(m -> known.put(m.text(), m));
        }
        List<SystemMessage> out = new ArrayList<>(systems.size());
        for (SystemPlacement p : systems) {
            out.add(known.computeIfAbsent(p.text(), SystemMessage::from));
        }
        return List.copyOf(out);
    }

    /**
     * Whether parsing the unit's messages gives the unit back. Parsing is a left fold that starts a new unit at each
     * message other than a tool result, so a list of units that each round-trip parses back to those units: the
     * premise of {@link #parsedFrom}.
     */
    private static boolean roundTrips(Unit u) {
        try {
            return Units.parse(u.messages()).equals(List.of(u));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A group from an assistant message and the results recorded for it (unanswered-marker results left out). */
    private static Unit.Group group(Message ai, List<ContentBlock.ToolResult> results) {
        Unit.Group g = Unit.Group.open(Messages.toAi(ai));
        List<ContentBlock.ToolUse> calls = ai.toolUses();
        for (ContentBlock.ToolResult r : results) {
            if (r.isError() && r.content().equals("error: " + Vars.UNANSWERED)) {
                continue;
            }
            for (int c = 0; c < calls.size(); c++) {
                if (calls.get(c).id().equals(r.toolUseId())) {
                    ContentBlock.ToolUse u = calls.get(c);
                    g = g.with(c, Messages.toResult(CallIds.decode(u.id()), u.name(), r.content(), r.isError()));
                }
            }
        }
        return g;
    }

    int start() {
        return start;
    }

    /** The units other than system messages, in order. */
    List<Unit> conversation() {
        return conversation;
    }

    /** The transcript index of each conversation unit (the pending group's is the transcript size). */
    List<Integer> at() {
        return at;
    }

    /** The system messages, each with its offset from {@link #start()}. */
    List<SystemPlacement> systems() {
        return systems;
    }

    /** The pending group's AI message as stored, or null. */
    Message pending() {
        return pending;
    }

    /** The state this view was read from. */
    State state() {
        return state;
    }

    /** The units in order, system messages included. */
    List<Unit> units() {
        return units.entries();
    }

    /** The view as LangChain4j messages (a new list; the same message objects every time). */
    List<ChatMessage> messages() {
        return new ArrayList<>(handed.entries());
    }

    /**
     * The units of {@code wanted} when it starts with this view's messages, the same objects (a framework handing
     * back the list it read, plus what it added): this view's units and the rest parsed. Null when it does not (or
     * this view's units do not parse back from its messages): then the whole list must be parsed.
     *
     * @throws IllegalArgumentException as {@link Units#parse} does, for the messages after the prefix
     */
    List<Unit> parsedFrom(List<ChatMessage> wanted) {
        if (!canonical) {
            return null;
        }
        List<ChatMessage> mine = handed.entries();
        if (!ViewCache.sameObjects(mine, wanted, 0, mine.size())) {
            return null;
        }
        List<Unit> out = new ArrayList<>(units().size() + wanted.size() - mine.size());
        out.addAll(units());
        for (int i = mine.size(); i < wanted.size(); i++) {
            Units.add(out, wanted.get(i));
        }
        return out;
    }

    /** The last conversation unit when it is the pending group, else null. */
    Unit.Group pendingGroup() {
        return pending == null ? null : (Unit.Group) conversation.getLast();
    }
}
