package dev.threadline.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One unit of a memory's view, in canonical form (what reading it back would give): a plain user or AI
 * message, a system message, or a tool-call group (an AI message with tool requests and the results
 * answering them, by call position, null where none is recorded). Groups are compared as a whole, so
 * the order in which results were added does not matter. Immutable.
 */
sealed interface Unit {

    /** The messages this unit reads as, in order. */
    List<ChatMessage> messages();

    /** A user message or an AI message without tool requests. */
    record Plain(ChatMessage message) implements Unit {
        @Override
        public List<ChatMessage> messages() {
            return List.of(message);
        }
    }

    /** A system message. */
    record Sys(SystemMessage message) implements Unit {
        @Override
        public List<ChatMessage> messages() {
            return List.of(message);
        }
    }

    /** An AI message with tool requests and its results, by call position (null: none recorded). */
    record Group(AiMessage ai, List<ToolExecutionResultMessage> results) implements Unit {
        public Group {
            results = Collections.unmodifiableList(new ArrayList<>(results));
        }

        /** A group with no result yet. */
        static Group open(AiMessage ai) {
            return new Group(ai, Collections.nCopies(ai.toolExecutionRequests().size(), null));
        }

        boolean complete() {
            return results.stream().allMatch(Objects::nonNull);
        }

        /** Whether {@code other} has the same request and every result this one has (possibly more). */
        boolean extendedBy(Unit other) {
            if (!(other instanceof Group g) || !g.ai.equals(ai)) {
                return false;
            }
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) != null && !results.get(i).equals(g.results.get(i))) {
                    return false;
                }
            }
            return true;
        }

        Group with(int call, ToolExecutionResultMessage result) {
            List<ToolExecutionResultMessage> next = new ArrayList<>(results);
            next.set(call, result);
            return new Group(ai, next);
        }

        @Override
        public List<ChatMessage> messages() {
            List<ChatMessage> out = new ArrayList<>(1 + results.size());
            out.add(ai);
            results.stream().filter(Objects::nonNull).forEach(out::add);
            return out;
        }
    }
}
