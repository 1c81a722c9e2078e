package dev.threadline.core.context;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.threadline.core.error.Require;
import dev.threadline.core.state.State;
import java.util.Locale;

/**
 * Chooses what part of the transcript the model sees. Stored with the session (its config's
 * {@code contextPolicy}), so the set is closed: {@link Full}, {@link Window}, {@link AutoCompact}.
 *
 * <p>Every policy keeps the same contract, checked by property tests over random journals: a view
 * starts with a user message, never separates a tool_use from its tool_result, never drops a pending
 * call or any message of the current turn (when that turn alone is over the budget, the view says so
 * in {@link ContextView#warning()} instead of cutting it), and honours earlier clears and
 * compactions. The system prompt is not part of the view: it travels in every request. Each policy is
 * an immutable record: safe to share between sessions and threads.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ContextPolicy.Full.class, name = "full"),
    @JsonSubTypes.Type(value = ContextPolicy.Window.class, name = "window"),
    @JsonSubTypes.Type(value = ContextPolicy.AutoCompact.class, name = "auto-compact")
})
public sealed interface ContextPolicy {

    /** The messages to send for this state, measured against {@code limits}. Pure. */
    ContextView view(State state, ContextLimits limits);

    /** Everything since the last clear, the latest summary in place of what it covers. */
    static ContextPolicy full() {
        return new Full();
    }

    /** The latest whole turns that fit in {@code maxMessages} messages and {@code maxTokens} tokens (0: no limit). */
    static ContextPolicy window(int maxMessages, long maxTokens) {
        return new Window(maxMessages, maxTokens);
    }

    /** Summarise older turns when the view passes 90% of the model's window (the default policy). */
    static ContextPolicy autoCompact() {
        return AutoCompact.DEFAULT;
    }

    /**
     * Reads the text form ({@code toString()}): {@code full}, {@code window:40} (messages),
     * {@code window:messages=40,tokens=8000}, {@code auto-compact}, {@code auto-compact:0.8} (threshold),
     * {@code auto-compact:threshold=0.8,keep=0.25}.
     */
    static ContextPolicy parse(String spec) {
        return PolicySpec.parse(spec);
    }

    /** The {@code full} policy: nothing is dropped; the view may outgrow the window (then it says so). */
    record Full() implements ContextPolicy {
        @Override
        public ContextView view(State state, ContextLimits limits) {
            ContextBase base = ContextBase.of(state, limits.counter());
            int u = base.firstUsableUnit();
            long tokens = limits.baseTokens() + base.tokensFrom(u);
            String warning = tokens <= limits.inputBudget() ? null : "the context holds " + tokens + " tokens, more than the "
                    + limits.inputBudget() + " the model's window leaves for input; the full policy drops nothing"
                    + " (use /compact or /clear, or the auto-compact policy)";
            return base.viewFrom(u, limits, limits.inputBudget(), warning);
        }

        @Override
        public String toString() {
            return "full";
        }
    }

    /**
     * The {@code window} policy: the latest whole turns within {@code maxMessages} messages and
     * {@code maxTokens} message tokens (0 leaves that dimension unlimited), and always within the
     * model's window. Dropped turns stay in the journal; a compaction summary stays while every turn
     * after it fits.
     */
    record Window(int maxMessages, long maxTokens) implements ContextPolicy {
        public Window {
            Require.argument(maxMessages >= 0 && maxTokens >= 0, "window",
                    "limits must not be negative, were messages=" + maxMessages + ", tokens=" + maxTokens);
            Require.argument(maxMessages > 0 || maxTokens > 0, "window", "give a message limit, a token limit or both");
        }

        @Override
        public ContextView view(State state, ContextLimits limits) {
            ContextBase base = ContextBase.of(state, limits.counter());
            long budget = maxTokens == 0 ? limits.inputBudget() : Math.min(limits.inputBudget(), limits.baseTokens() + maxTokens);
            if (base.units() == 0) {
                return base.viewFrom(0, limits, budget, null);
            }
            for (int u = base.firstUsableUnit(); u < base.units(); u++) {
                boolean fitsMessages = maxMessages == 0 || base.messagesFrom(u) <= maxMessages;
                if (fitsMessages && limits.baseTokens() + base.tokensFrom(u) <= budget) {
                    return base.viewFrom(u, limits, budget, null);
                }
            }
            int last = base.lastUnit();
            String warning = "the current turn alone has " + base.messagesFrom(last) + " messages and "
                    + (limits.baseTokens() + base.tokensFrom(last)) + " tokens, over this window (" + this + ", budget "
                    + budget + " tokens); it is sent whole, because cutting it would separate tool calls from their results";
            return base.viewFrom(last, limits, budget, warning);
        }

        @Override
        public String toString() {
            return "window:messages=" + maxMessages + ",tokens=" + maxTokens;
        }
    }

    /**
     * The {@code auto-compact} policy (the default): the full context until its request passes
     * {@code threshold} of the model's window; then, before the next model call, the runtime has the
     * model summarise the older turns (a {@code ContextCompacted} event) and keeps the latest turns
     * verbatim, up to {@code keepRecent} of the window. The current turn is never summarised.
     */
    record AutoCompact(double threshold, double keepRecent) implements ContextPolicy {
        /** The default: compact past 90% of the window, keeping a quarter of it verbatim. */
        public static final AutoCompact DEFAULT = new AutoCompact(0.9, 0.25);

        public AutoCompact {
            Require.argument(threshold > 0 && threshold <= 1, "auto-compact.threshold",
                    "must be a fraction of the window in (0, 1], was " + threshold);
            Require.argument(keepRecent >= 0 && keepRecent < threshold, "auto-compact.keepRecent",
                    "must be in [0, threshold " + threshold + "), was " + keepRecent);
        }

        /** The request size at which compaction starts: the threshold, never above the input budget. */
        public long triggerTokens(ContextLimits limits) {
            return Math.min((long) (threshold * limits.windowTokens()), limits.inputBudget());
        }

        @Override
        public ContextView view(State state, ContextLimits limits) {
            ContextBase base = ContextBase.of(state, limits.counter());
            int u = base.firstUsableUnit();
            long tokens = limits.baseTokens() + base.tokensFrom(u);
            long trigger = triggerTokens(limits);
            String warning = null;
            if (tokens > trigger) {
                warning = CompactionPlan.auto(state, limits, this, tokens).isPresent()
                        ? "the context holds " + tokens + " tokens, past the auto-compact threshold of " + trigger
                                + "; older turns are summarised before the next model call"
                        : "the context holds " + tokens + " tokens, past the auto-compact threshold of " + trigger
                                + ", and the current turn alone is that large; it is sent whole, because cutting it would"
                                + " separate tool calls from their results";
            }
            return base.viewFrom(u, limits, trigger, warning);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "auto-compact:threshold=%s,keep=%s", threshold, keepRecent);
        }
    }
}
