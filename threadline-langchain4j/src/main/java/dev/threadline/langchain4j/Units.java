package dev.threadline.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.threadline.chatmemory.CallIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Parses a LangChain4j message list into canonical {@link Unit}s. Stateless. */
final class Units {
    private Units() {}

    /**
     * The units of {@code messages}. A tool result joins the tool-call group right before it: the call
     * with its id, or for a result without id the first unanswered call of its tool name, or else the
     * first unanswered call.
     *
     * @throws IllegalArgumentException for a message that cannot be stored (see {@link Messages}), a
     *                                  custom message, or a tool result that answers no call of the AI
     *                                  message right before it
     */
    static List<Unit> parse(List<ChatMessage> messages) {
        List<Unit> out = new ArrayList<>(messages.size());
        for (ChatMessage m : messages) {
            add(out, m);
        }
        return out;
    }

    /**
     * Adds one message to {@code out}, as {@link #parse} does.
     *
     * @throws IllegalArgumentException as {@link #parse} does
     */
    static void add(List<Unit> out, ChatMessage m) {
        switch (m) {
            case null -> throw new IllegalArgumentException("a chat memory cannot hold a null message");
            case SystemMessage s -> out.add(new Unit.Sys(SystemMessage.from(s.text())));
            case UserMessage u -> out.add(new Unit.Plain(Messages.toUser(Messages.user(u))));
            case AiMessage a -> {
                AiMessage canonical = Messages.toAi(Messages.ai(a, id -> CallIds.encode(id, x -> false)));
                out.add(a.hasToolExecutionRequests() ? Unit.Group.open(canonical) : new Unit.Plain(canonical));
            }
            case ToolExecutionResultMessage r -> {
                Unit last = out.isEmpty() ? null : out.getLast();
                if (!(last instanceof Unit.Group g)) {
                    throw new IllegalArgumentException("the tool result for call " + r.id() + " (" + r.toolName()
                            + ") does not follow the AI message that requested it; Threadline keeps calls and results paired");
                }
                int call = callOf(g, r);
                ToolExecutionRequest req = g.ai().toolExecutionRequests().get(call);
                out.set(out.size() - 1, g.with(call, Messages.toResult(req.id(), req.name(), Messages.resultText(r),
                        Boolean.TRUE.equals(r.isError()))));
            }
            default -> throw new IllegalArgumentException("a " + m.type() + " message cannot be stored in a Threadline chat memory");
        }
    }

    private static int callOf(Unit.Group g, ToolExecutionResultMessage r) {
        List<ToolExecutionRequest> calls = g.ai().toolExecutionRequests();
        int byName = -1;
        int any = -1;
        for (int i = 0; i < calls.size(); i++) {
            if (g.results().get(i) != null) {
                continue;
            }
            if (r.id() != null && Objects.equals(calls.get(i).id(), r.id())) {
                return i;
            }
            if (byName < 0 && Objects.equals(calls.get(i).name(), r.toolName())) {
                byName = i;
            }
            if (any < 0) {
                any = i;
            }
        }
        int found = r.id() == null ? (byName >= 0 ? byName : any) : -1;
        if (found < 0) {
            throw new IllegalArgumentException("the tool result for call " + r.id() + " (" + r.toolName()
                    + ") answers no unanswered call of the AI message before it");
        }
        return found;
    }
}
