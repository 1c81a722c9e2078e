package dev.threadline.core.state;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks invariant 3: every tool_use is answered by exactly one tool_result, in the tool message that
 * immediately follows it, in the same order; no tool_result without its tool_use; tool_use ids are
 * unique. A model view must also start with a user message, leave nothing pending, and hold no empty
 * message or blank text block (providers refuse both). Runs before every model call and after every
 * fork and rewind. Stateless: safe from any thread.
 */
public final class TranscriptValidator {
    private TranscriptValidator() {}

    /** How strict to be about the end of the transcript. */
    public enum Mode {
        /** What is sent to a model: nothing unanswered, a user message first, no empty message or blank text. */
        MODEL_VIEW,
        /** A state at any checkpoint: the last assistant message's tool calls may still be pending. */
        CHECKPOINT
    }

    /** The violations found, empty when the transcript is valid. */
    public static List<String> violations(List<Message> messages, Mode mode) {
        List<String> out = new ArrayList<>();
        Set<String> seenIds = new HashSet<>();
        if (mode == Mode.MODEL_VIEW) {
            Message first = messages.stream().filter(m -> m.role() != Role.SYSTEM).findFirst().orElse(null);
            if (first != null && first.role() != Role.USER) {
                out.add("the first non-system message is " + first.role().wireName() + ", not user");
            }
        }
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (mode == Mode.MODEL_VIEW) {
                emptiness(i, m, out);
            }
            List<ContentBlock.ToolUse> uses = m.toolUses();
            for (ContentBlock.ToolUse u : uses) {
                if (!seenIds.add(u.id())) {
                    out.add("message " + i + ": tool_use id '" + u.id() + "' is used twice");
                }
            }
            if (m.role() == Role.TOOL) {
                Message prev = i == 0 ? null : messages.get(i - 1);
                if (prev == null || prev.role() != Role.ASSISTANT || prev.toolUses().isEmpty()) {
                    out.add("message " + i + ": tool results " + ids(m.toolResults())
                            + " do not follow an assistant message with tool_use");
                }
                continue;
            }
            if (uses.isEmpty()) {
                continue;
            }
            Message next = i + 1 < messages.size() ? messages.get(i + 1) : null;
            if (next == null) {
                if (mode == Mode.MODEL_VIEW) {
                    out.add("message " + i + ": tool_use " + idsOfUses(uses) + " has no tool_result");
                }
                continue;
            }
            if (next.role() != Role.TOOL) {
                out.add("message " + i + ": tool_use " + idsOfUses(uses) + " is followed by a "
                        + next.role().wireName() + " message instead of its tool results");
                continue;
            }
            List<String> expected = idsOfUses(uses);
            List<String> actual = ids(next.toolResults());
            if (!expected.equals(actual)) {
                out.add("message " + (i + 1) + ": tool results " + actual + " do not answer tool_use " + expected
                        + " exactly once each, in order");
            }
        }
        return out;
    }

    /** Providers refuse a message without content and a text block of whitespace only. */
    private static void emptiness(int i, Message m, List<String> out) {
        if (m.content().isEmpty()) {
            out.add("message " + i + " (" + m.role().wireName() + ") has no content");
        } else if (m.content().stream().anyMatch(b -> b instanceof ContentBlock.Text t && t.text().isBlank())) {
            out.add("message " + i + " (" + m.role().wireName() + ") holds a blank text block");
        }
    }

    /** Whether {@code messages} has no violation in {@code mode}. */
    public static boolean isValid(List<Message> messages, Mode mode) {
        return violations(messages, mode).isEmpty();
    }

    /**
     * Throws {@link InvalidInputException} naming the first violations. A context policy's view of a
     * state ({@link ModelTranscript.View}) is checked as a model view in O(log n) from what its transcript
     * already knows about each message; any other list, or a view with something wrong, is walked whole.
     */
    public static void check(List<Message> messages, Mode mode) {
        if (mode == Mode.MODEL_VIEW && messages instanceof ModelTranscript.View v && v.validModelView()) {
            return;
        }
        List<String> v = violations(messages, mode);
        if (!v.isEmpty()) {
            throw new InvalidInputException("transcript", String.join("; ", v.subList(0, Math.min(3, v.size()))));
        }
    }

    private static List<String> ids(List<ContentBlock.ToolResult> results) {
        return results.stream().map(ContentBlock.ToolResult::toolUseId).toList();
    }

    private static List<String> idsOfUses(List<ContentBlock.ToolUse> uses) {
        return uses.stream().map(ContentBlock.ToolUse::id).toList();
    }
}
