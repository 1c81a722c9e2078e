package dev.threadline.core.context;

import dev.threadline.core.error.Require;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.RecalledMessage;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A session's recall (issue 38, ADR 0042), an opt-in setting of its context
 * ({@code SessionConfig.withRecall(k, tokenBudget)}): before each model call the runtime searches the
 * journal for the turn's latest user message and places the {@code k} best matching messages that are
 * older than the view (left out by the window, or summarised by a compaction) after the summary, as one
 * user message that marks each with its seq, within {@code tokenBudget} tokens. A tool call is recalled
 * with its results or not at all. The choice is journalled ({@code ContextRecalled}), so the view
 * is a function of the journal: a reload sees the same request. The budget is kept free in every view
 * whether or not anything is recalled. An immutable record: safe to share between sessions and threads.
 *
 * @param k           the most messages (or call-and-result pairs) recalled, 1 to {@value #MAX_K}
 * @param tokenBudget the most tokens the recalled messages take in a request, 1 to {@value #MAX_BUDGET}
 */
public record ContextRecall(int k, int tokenBudget) {
    /** The most messages one recall brings back. */
    public static final int MAX_K = 20;
    /** The largest token budget. */
    public static final int MAX_BUDGET = 100_000;
    /** The first line of the recalled block. */
    public static final String HEADER = "Recalled from earlier in this conversation (no longer in your context; each line"
            + " names the seq that holds it in the session's journal):";

    /** @throws dev.threadline.core.error.InvalidInputException when {@code k} or the budget is out of range */
    public ContextRecall {
        Require.argument(k >= 1 && k <= MAX_K, "recall.k", "must be 1 to " + MAX_K + ", was " + k);
        Require.argument(tokenBudget >= 1 && tokenBudget <= MAX_BUDGET, "recall.tokenBudget",
                "must be 1 to " + MAX_BUDGET + " tokens, was " + tokenBudget);
    }

    /**
     * The messages recalling {@code message} brings: a tool call with its results (the assistant message
     * and the tool message after it), otherwise the message alone, as transcript indices
     * {@code [from, to)}; null when a call's results are not in the transcript (it is left out then).
     */
    public static int[] unit(List<Message> transcript, int message) {
        if (message < 0 || message >= transcript.size()) {
            return null;
        }
        Message m = transcript.get(message);
        if (m.role() == Role.TOOL) {
            boolean call = message > 0 && !transcript.get(message - 1).toolUses().isEmpty();
            return call ? new int[] {message - 1, message + 1} : null;
        }
        if (!m.toolUses().isEmpty()) {
            boolean results = message + 1 < transcript.size() && transcript.get(message + 1).role() == Role.TOOL;
            return results ? new int[] {message, message + 2} : null;
        }
        return new int[] {message, message + 1};
    }

    /**
     * The recalled block: one user message, {@link #HEADER} then a line per block of each recalled unit
     * ({@code [recalled seq 7, user] the door code is 4712}, {@code [recalled seq 9, assistant calls f] {...}},
     * {@code [recalled seq 9, result of f] ...}), in transcript order.
     */
    public static Message render(List<RecalledMessage> recalled, List<Message> transcript) {
        StringBuilder sb = new StringBuilder(HEADER);
        for (RecalledMessage r : recalled) {
            int[] u = unit(transcript, r.message());
            if (u == null) {
                continue;
            }
            for (String line : SummaryPrompt.lines(transcript.subList(u[0], u[1]))) {
                sb.append("\n[recalled seq ").append(r.seq()).append(", ").append(line.substring(1));
            }
        }
        return Message.user(sb.toString());
    }

    /**
     * What of {@code recalled} a view that starts at transcript index {@code viewStart} shows: the units
     * wholly inside the context ({@code contextStart} on) and before the view, in transcript order.
     */
    static List<RecalledMessage> shown(List<RecalledMessage> recalled, List<Message> transcript, int contextStart, int viewStart) {
        List<RecalledMessage> out = new ArrayList<>();
        for (RecalledMessage r : recalled) {
            int[] u = unit(transcript, r.message());
            if (u != null && u[0] >= contextStart && u[1] <= viewStart) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * The choice for the next model call: of {@code ranked} (search hits as transcript positions, best
     * first), the first {@code k} whose units lie before {@code view}'s first message and inside the
     * context, a unit once, each taken only while the recalled block stays within the budget; in
     * transcript order. Pure.
     */
    public List<RecalledMessage> choose(State state, ContextView view, List<RecalledMessage> ranked, TokenCounter counter) {
        List<Message> transcript = state.messages();
        List<RecalledMessage> chosen = new ArrayList<>();
        Set<Integer> units = new HashSet<>();
        for (RecalledMessage r : ranked) {
            if (chosen.size() == k) {
                break;
            }
            int[] u = unit(transcript, r.message());
            if (u == null || u[0] < state.contextStart() || u[1] > view.start() || !units.add(u[0])) {
                continue;
            }
            List<RecalledMessage> next = new ArrayList<>(chosen);
            next.add(r);
            next.sort(Comparator.comparingInt(RecalledMessage::message));
            if (counter.count(render(next, transcript)) <= tokenBudget) {
                chosen = next;
            }
        }
        return List.copyOf(chosen);
    }

    @Override
    public String toString() {
        return "recall:k=" + k + ",tokens=" + tokenBudget;
    }
}
