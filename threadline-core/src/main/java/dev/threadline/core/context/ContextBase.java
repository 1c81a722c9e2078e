package dev.threadline.core.context;

import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.Compaction;
import dev.threadline.core.state.ModelTranscript;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;

/**
 * The context every policy starts from, cut into the only pieces a policy may drop: everything since
 * the last clear, with the latest compaction's summary (a user message) in place of what it covers,
 * split into <em>units</em> that each begin at a user message. A unit holds a whole turn, so every
 * tool_use sits in the same unit as its tool_result, and a suffix of units always starts with a user
 * message. The last unit is the current (or latest) turn, and holds any pending call.
 *
 * <p>Assistant messages with nothing to say (no blocks, or blank text only) are left out, and blank
 * text blocks are dropped from the others: providers refuse both, and neither carries a tool call.
 */
final class ContextBase {
    static final String SUMMARY_PREFIX = "This conversation continues from an earlier part that was summarised to fit"
            + " the context window. Summary of the earlier part:\n";

    /** Transcript index the context starts at (after the clear, or at the compaction boundary). */
    final int start;
    /** The summary in force, or null. */
    final String summary;
    /** Messages of the context since the last clear (summarised ones included). */
    final int contextSize;
    private final State state;
    private final TokenCounter counter;
    /** The transcript in the model's form, shared with every other version of the state (issue 39). */
    private final ModelTranscript.Cut cut;
    /** The position in {@link #cut} of the context's first message. */
    private final int first;
    /** The summary as a user message, or null. */
    private final Message summaryMessage;
    private final long summaryTokens;
    /** Whether unit 0 is made of the summary and the messages before the first user message (or is that message). */
    private final boolean leadUnit;
    private final int units;

    private ContextBase(State s, TokenCounter counter) {
        this.state = s;
        this.counter = counter;
        Compaction c = s.compaction();
        boolean summarised = c != null && c.boundary() > s.contextStart();
        this.start = summarised ? c.boundary() : s.contextStart();
        this.summary = summarised ? c.summary() : null;
        this.contextSize = s.messages().size() - s.contextStart();
        TokenCounter messages = counter instanceof TokenCounter.ProviderTokenCounter p ? p.local() : counter;
        this.cut = ModelTranscript.of(s, messages, messages::count);
        this.first = cut.positionOf(start);
        ModelTranscript.Counted made = summarised ? cut.derived(c, () -> Message.user(SUMMARY_PREFIX + c.summary()), messages::count) : null;
        this.summaryMessage = made == null ? null : made.message();
        this.summaryTokens = made == null ? 0 : made.tokens();
        int users = cut.usersFrom(first);
        this.leadUnit = summarised || first < cut.end() && cut.message(first).role() != Role.USER;
        this.units = users + (leadUnit ? 1 : 0);
    }

    static ContextBase of(State s, TokenCounter counter) {
        return new ContextBase(s, counter);
    }

    /** The position in the cut where unit {@code u} starts (unit 0 of a summarised context: its first message after the summary). */
    private int cutPosition(int u) {
        if (u >= units) {
            return cut.end();
        }
        if (leadUnit) {
            return u == 0 ? first : cut.userAt(first, u - 1);
        }
        return cut.userAt(first, u);
    }

    /** Whether unit {@code u} opens with the summary. */
    private boolean opensWithSummary(int u) {
        return u == 0 && summaryMessage != null;
    }

    /** The transcript index unit {@code u} starts at; -1 when it opens with the summary. */
    int transcriptIndexOf(int u) {
        return opensWithSummary(u) ? -1 : cut.transcriptIndex(cutPosition(u));
    }

    /** The first unit a view may start with: 0, or 1 when unit 0 does not begin with a user message. */
    int firstUsableUnit() {
        boolean headless = units > 0 && summaryMessage == null && cut.message(first).role() != Role.USER;
        return headless && units > 1 ? 1 : 0;
    }

    int lastUnit() {
        return Math.max(0, units - 1);
    }

    int units() {
        return units;
    }

    /** Tokens of the messages from unit {@code u} to the end. */
    long tokensFrom(int u) {
        return cut.tokensFrom(cutPosition(u)) + (opensWithSummary(u) ? summaryTokens : 0);
    }

    int messagesFrom(int u) {
        return cut.end() - cutPosition(u) + (opensWithSummary(u) ? 1 : 0);
    }

    /**
     * The view made of units {@code u..last}; {@code budget} and {@code warning} are the policy's. With
     * recall on ({@link ContextLimits#recall()}), the state's recalled messages older than the view
     * follow the summary (or open the view) as one user message.
     */
    ContextView viewFrom(int u, ContextLimits limits, long budget, String warning) {
        int from = cutPosition(u);
        List<Message> head = new ArrayList<>(2);
        if (opensWithSummary(u)) {
            head.add(summaryMessage);
        }
        long total = limits.fixedTokens() + tokensFrom(u);
        int originals = cut.end() - from;
        int firstIndex = from < cut.end() ? cut.transcriptIndex(from) : state.messages().size();
        if (limits.recall() != null) {
            List<dev.threadline.core.state.RecalledMessage> shown = ContextRecall.shown(state.recalled(), state.messages(),
                    state.contextStart(), firstIndex);
            if (!shown.isEmpty()) {
                Message block = ContextRecall.render(shown, state.messages());
                head.add(block);
                total += counter.count(block);
            }
        }
        return new ContextView(cut.view(head, from), total, budget, contextSize - originals, warning, firstIndex);
    }

    /** The message without blank text blocks; null for an assistant message left with nothing to say. */
    static Message sanitize(Message m) {
        return ModelTranscript.sanitize(m);
    }
}
