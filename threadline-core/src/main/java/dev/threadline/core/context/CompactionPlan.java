package dev.threadline.core.context;

import dev.threadline.core.model.Message;
import dev.threadline.core.state.State;
import java.util.List;
import java.util.Optional;

/**
 * A compaction to make: summarise {@code previousSummary} (if any) and {@code messages}, the
 * transcript from the context's start up to {@code boundary}, then record
 * {@code ContextCompacted(summary, boundary)}. The boundary is always a user message that starts a
 * turn (or the end of an idle transcript), so a summary never separates a tool call from its result,
 * and it is never inside the current turn.
 *
 * @param boundary        transcript index of the first message kept verbatim
 * @param previousSummary the summary in force, folded into the new one; null when there is none
 * @param messages        the transcript messages to summarise, oldest first (never empty)
 * @param tokensBefore    the request's input tokens before compaction
 */
public record CompactionPlan(int boundary, String previousSummary, List<Message> messages, long tokensBefore) {

    public CompactionPlan {
        messages = List.copyOf(messages);
    }

    /**
     * For {@link ContextPolicy.AutoCompact}: when the view passes the threshold, summarise every turn
     * before the latest ones that fit in {@code keepRecent} of the window (the current turn is always
     * kept). Empty when under the threshold or when nothing older than the current turn is left.
     */
    static Optional<CompactionPlan> auto(State state, ContextLimits limits, ContextPolicy.AutoCompact policy, long measured) {
        ContextBase base = ContextBase.of(state, limits.counter());
        long before = measured >= 0 ? measured : limits.baseTokens() + base.tokensFrom(base.firstUsableUnit());
        if (before <= policy.triggerTokens(limits)) {
            return Optional.empty();
        }
        long keep = Math.max(0, (long) (policy.keepRecent() * limits.windowTokens()) - (limits.baseTokens() - limits.fixedTokens()));
        int u = base.lastUnit();
        for (int c = base.firstUsableUnit() + 1; c < base.units(); c++) {
            if (base.tokensFrom(c) <= keep && startsAfterContextStart(base, c)) {
                u = c;
                break;
            }
        }
        return plan(state, base, u, before);
    }

    /**
     * For auto-compact only: the plan the runtime carries out before the next model call, if one is
     * due. {@code measured} is the request's size as best counted (the provider's count where it
     * offers one), or -1 to count the view locally.
     */
    public static Optional<CompactionPlan> due(State state, ContextLimits limits, ContextPolicy policy, long measured) {
        return policy instanceof ContextPolicy.AutoCompact a ? auto(state, limits, a, measured) : Optional.empty();
    }

    /**
     * On demand ({@code /compact}, {@code Session.compact()}), under any policy: between turns,
     * everything in the context; during a turn, everything before it. Empty when there is nothing new
     * to summarise.
     */
    public static Optional<CompactionPlan> all(State state, ContextLimits limits) {
        ContextBase base = ContextBase.of(state, limits.counter());
        long before = limits.baseTokens() + base.tokensFrom(base.firstUsableUnit());
        if (state.isIdle() && state.pending().isEmpty()) {
            int boundary = state.messages().size();
            return boundary > base.start
                    ? Optional.of(new CompactionPlan(boundary, base.summary, state.messages().subList(base.start, boundary), before))
                    : Optional.empty();
        }
        return plan(state, base, base.lastUnit(), before);
    }

    /** The output limit of the summary call: the session's reply limit, at most an eighth of the window. */
    public static int summaryMaxTokens(ContextLimits limits) {
        return Math.max(1, Math.min(limits.maxOutputTokens(), limits.windowTokens() / 8));
    }

    private static Optional<CompactionPlan> plan(State state, ContextBase base, int unit, long before) {
        if (unit < 1 || !startsAfterContextStart(base, unit)) {
            return Optional.empty();
        }
        int boundary = base.transcriptIndexOf(unit);
        return Optional.of(new CompactionPlan(boundary, base.summary, state.messages().subList(base.start, boundary), before));
    }

    /** Whether unit {@code u} begins at a transcript message with something before it to summarise. */
    private static boolean startsAfterContextStart(ContextBase base, int u) {
        int idx = base.transcriptIndexOf(u);
        return idx > base.start;
    }
}
