package dev.threadline.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.MemoryLayout;
import dev.threadline.chatmemory.SystemPlacement;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A memory's view of a session, as of one state: the transcript from the view's start, then the pending
 * tool-call group, with the system messages placed among them. Immutable.
 *
 * @param start        the transcript index the view starts at
 * @param conversation the units other than system messages, in order
 * @param at           the transcript index of each conversation unit (the pending group's is the transcript size)
 * @param systems      the system messages, each with its offset from {@code start}
 * @param pending      the pending group's AI message as stored, or null
 * @param state        the state this view was read from
 */
record View(int start, List<Unit> conversation, List<Integer> at, List<SystemPlacement> systems, Message pending, State state) {

    static View of(State s) {
        Map<String, JsonNode> vars = s.variables();
        List<Message> transcript = s.messages();
        int start = Vars.LAYOUT.start(s);
        List<Unit> units = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        for (int i = start; i < transcript.size(); i++) {
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
        return new View(start, Collections.unmodifiableList(units), Collections.unmodifiableList(at), Vars.LAYOUT.systems(s), pending, s);
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

    /** The units in order, system messages included. */
    List<Unit> units() {
        return MemoryLayout.interleave(start, at, systems, conversation::get, text -> new Unit.Sys(SystemMessage.from(text)));
    }

    /** The view as LangChain4j messages. */
    List<ChatMessage> messages() {
        List<ChatMessage> out = new ArrayList<>();
        for (Unit u : units()) {
            out.addAll(u.messages());
        }
        return out;
    }

    /** The last conversation unit when it is the pending group, else null. */
    Unit.Group pendingGroup() {
        return pending == null ? null : (Unit.Group) conversation.getLast();
    }
}
