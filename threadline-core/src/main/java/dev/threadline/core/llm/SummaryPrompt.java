package dev.threadline.core.llm;

import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.StopReason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The request that has a model summarise part of a transcript for compaction. The part is rendered
 * as plain text in one user message, with no tools: a provider cannot refuse it for tool_use blocks
 * without tool definitions or for an unanswered call, and long blocks can be clipped to fit the
 * window (the journal keeps the originals). Recognisable by its system prompt ({@link #isSummaryRequest}).
 * Stateless: safe from any thread.
 */
public final class SummaryPrompt {
    /** The system prompt of every summary request. */
    public static final String SYSTEM = "You write the running summary of a conversation between a user and an AI"
            + " assistant that uses tools. The assistant will continue the conversation from your summary alone, so keep"
            + " every fact it needs: the user's goals and requests, decisions made, results of tool calls (numbers,"
            + " names, paths, errors), open questions and what was about to happen next. Fold the previous summary in."
            + " Write plain prose or short lists, no preamble.";
    private static final int MIN_CAP = 120;

    private SummaryPrompt() {}

    /**
     * The summary request for {@code messages} after {@code previousSummary} (null for none), clipped
     * so its input fits {@code inputBudget} tokens as {@code counter} measures it.
     */
    public static ChatRequest request(String model, String previousSummary, List<Message> messages, String focus,
                                      int maxTokens, long inputBudget, TokenCounter counter) {
        List<String> lines = lines(messages);
        long frame = counter.count(build(model, previousSummary, List.of(), 0, focus, maxTokens));
        int cap = lines.stream().mapToInt(String::length).max().orElse(0);
        long[] whole = new long[lines.size()]; // tokens of each unclipped line, counted once
        java.util.Arrays.fill(whole, -1);
        while (true) {
            // per-line counts add up to about the whole (BPE merges never cross the newline much); the
            // whole request is counted at the end to be sure, and a line more is left out if needed
            long[] suffix = new long[lines.size() + 1];
            for (int i = lines.size() - 1; i >= 0; i--) {
                String line = lines.get(i);
                long n;
                if (line.length() <= cap) {
                    n = whole[i] >= 0 ? whole[i] : (whole[i] = counter.count(line));
                } else {
                    n = counter.count(clip(line, cap));
                }
                suffix[i] = suffix[i + 1] + n + 1;
            }
            if (frame + suffix[0] <= inputBudget || cap <= MIN_CAP) {
                int dropped = 0;
                while (dropped < lines.size() && frame + suffix[dropped] > inputBudget) {
                    dropped++; // first the longest blocks were clipped; now the oldest lines are left out
                }
                while (true) {
                    List<String> kept = new ArrayList<>();
                    for (String line : lines.subList(dropped, lines.size())) {
                        kept.add(clip(line, cap));
                    }
                    ChatRequest r = build(model, previousSummary, kept, dropped, focus, maxTokens);
                    if (dropped >= lines.size() || counter.count(r) <= inputBudget) {
                        return r;
                    }
                    dropped++;
                }
            }
            cap = Math.max(MIN_CAP, cap / 2);
        }
    }

    private static ChatRequest build(String model, String previousSummary, List<String> lines, int dropped, String focus,
                                     int maxTokens) {
        return new ChatRequest(model, SYSTEM, List.of(Message.user(render(previousSummary, lines, dropped, focus))),
                List.of(), maxTokens);
    }

    /** Whether {@code request} is a summary request (its system prompt, no tools). */
    public static boolean isSummaryRequest(ChatRequest request) {
        return SYSTEM.equals(request.system()) && request.tools().isEmpty();
    }

    /** The summary a reply holds; a refusal or an empty reply is a {@link ModelException}. */
    public static String summaryOf(ChatResponse response) {
        if (response.stopReason() == StopReason.REFUSAL) {
            throw new ModelException("the model refused to summarise the conversation for compaction", false);
        }
        String text = response.text().strip();
        if (text.isEmpty()) {
            throw new ModelException("the model returned an empty summary (stop reason "
                    + response.stopReason().wireName() + ")", true);
        }
        return text;
    }

    /** One line per block: who said what, tool calls with their input, results with their tool's name. */
    public static List<String> lines(List<Message> messages) {
        List<String> out = new ArrayList<>();
        Map<String, String> toolNames = new HashMap<>();
        for (Message m : messages) {
            for (ContentBlock b : m.content()) {
                switch (b) {
                    case ContentBlock.Text t when !t.text().isBlank() -> out.add("[" + m.role().wireName() + "] " + t.text());
                    case ContentBlock.ToolUse u -> {
                        toolNames.put(u.id(), u.name());
                        out.add("[assistant calls " + u.name() + "] " + u.input());
                    }
                    case ContentBlock.ToolResult r -> out.add("[" + (r.isError() ? "error from " : "result of ")
                            + toolNames.getOrDefault(r.toolUseId(), "a tool") + "] " + r.content());
                    case ContentBlock.ImageRef i -> out.add("[" + m.role().wireName() + " image] " + i.uri());
                    default -> { } // blank text, thinking: nothing the summary needs
                }
            }
            if (m.role() == Role.USER && m.content().isEmpty()) {
                out.add("[user]");
            }
        }
        return out;
    }

    private static String render(String previousSummary, List<String> lines, int dropped, String focus) {
        StringBuilder sb = new StringBuilder();
        if (previousSummary != null) {
            sb.append("<previous_summary>\n").append(previousSummary).append("\n</previous_summary>\n");
        }
        sb.append("<conversation>\n");
        if (dropped > 0) {
            sb.append("[").append(dropped).append(" earlier lines left out to fit the context window]\n");
        }
        for (String line : lines) {
            sb.append(line).append('\n');
        }
        sb.append("</conversation>\n\nWrite the new summary of everything above");
        if (previousSummary != null) {
            sb.append(", the previous summary included");
        }
        sb.append('.');
        if (focus != null && !focus.isBlank()) {
            sb.append(" Focus on: ").append(focus.strip());
        }
        return sb.toString();
    }

    private static String clip(String s, int cap) {
        if (s.length() <= cap) {
            return s;
        }
        int keep = Math.max(MIN_CAP, cap) - 40;
        int head = keep / 2;
        int tail = s.length() - keep / 2;
        if (Character.isHighSurrogate(s.charAt(head - 1))) {
            head--; // never split a character in two
        }
        if (Character.isLowSurrogate(s.charAt(tail))) {
            tail++;
        }
        return s.substring(0, head) + " [... " + (tail - head) + " characters left out ...] " + s.substring(tail);
    }
}
