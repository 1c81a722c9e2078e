package dev.threadline.springai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.chatmemory.CallIds;
import dev.threadline.chatmemory.MemoryLayout;
import dev.threadline.chatmemory.SystemPlacement;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A conversation's view of a session as of one state: the transcript from the view's start (a view may
 * start at a tool message whose calls a window evicted), then the pending assistant message, with the
 * system messages placed among them. Results recorded as {@link Vars#UNANSWERED} are not part of it.
 * Immutable.
 *
 * @param start        the transcript index the view starts at
 * @param conversation the neutral messages other than system messages, in order
 * @param stored       each of them as stored (tool ids as in the journal)
 * @param at           the transcript index of each (the pending message's is the transcript size)
 * @param systems      the system messages with their offsets from {@code start}
 * @param pending      the pending assistant message as stored, or null
 */
record View(int start, List<Item.Msg> conversation, List<Message> stored, List<Integer> at, List<SystemPlacement> systems,
            Message pending) {

    static View of(State s) {
        Map<String, JsonNode> vars = s.variables();
        List<Message> transcript = s.messages();
        int start = Vars.LAYOUT.start(s);
        List<Item.Msg> items = new ArrayList<>();
        List<Message> stored = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        for (int i = start; i < transcript.size(); i++) {
            Message m = transcript.get(i);
            if (m.role() == Role.TOOL) {
                List<ContentBlock.ToolResult> kept = m.toolResults().stream()
                        .filter(r -> !(r.isError() && r.content().equals("error: " + Vars.UNANSWERED))).toList();
                if (kept.isEmpty()) {
                    continue;
                }
                m = Message.toolResults(kept);
            }
            items.add(new Item.Msg(neutral(m)));
            stored.add(m);
            at.add(i);
        }
        String pendingVariable = Vars.LAYOUT.pendingVariable();
        Message pending = vars.containsKey(pendingVariable) ? Json.convert(vars.get(pendingVariable), Message.class) : null;
        if (pending != null) {
            items.add(new Item.Msg(neutral(pending)));
            stored.add(pending);
            at.add(transcript.size());
        }
        return new View(start, List.copyOf(items), List.copyOf(stored), List.copyOf(at), Vars.LAYOUT.systems(s), pending);
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

    /** The view as Spring AI messages. */
    List<org.springframework.ai.chat.messages.Message> messages(State s) {
        return MemoryLayout.interleave(start, at, systems, i -> {
            Message m = stored.get(i);
            int index = at.get(i);
            Message calls = m.role() == Role.TOOL && index > 0 ? s.messages().get(index - 1) : null;
            return SpringMessages.toSpring(m, calls);
        }, org.springframework.ai.chat.messages.SystemMessage::new);
    }
}
