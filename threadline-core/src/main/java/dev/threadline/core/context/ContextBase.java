package dev.threadline.core.context;

import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.Compaction;
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

    final List<Message> messages = new ArrayList<>();
    /** Transcript index of each message, -1 for the summary. */
    final List<Integer> index = new ArrayList<>();
    final List<Long> tokens = new ArrayList<>();
    /** Positions in {@link #messages} where a unit begins; only the first may begin without a user message. */
    final List<Integer> unitStarts = new ArrayList<>();
    /** Transcript index the context starts at (after the clear, or at the compaction boundary). */
    final int start;
    /** The summary in force, or null. */
    final String summary;
    /** Messages of the context since the last clear (summarised ones included). */
    final int contextSize;
    /** suffix[p] = tokens of messages p..end. */
    private final long[] suffix;
    private final State state;
    private final TokenCounter counter;

    private ContextBase(State s, TokenCounter counter) {
        this.state = s;
        this.counter = counter;
        Compaction c = s.compaction();
        boolean summarised = c != null && c.boundary() > s.contextStart();
        this.start = summarised ? c.boundary() : s.contextStart();
        this.summary = summarised ? c.summary() : null;
        this.contextSize = s.messages().size() - s.contextStart();
        if (summarised) {
            add(Message.user(SUMMARY_PREFIX + c.summary()), -1, counter);
        }
        List<Message> all = s.messages();
        for (int i = start; i < all.size(); i++) {
            Message m = sanitize(all.get(i));
            if (m != null) {
                add(m, i, counter);
            }
        }
        suffix = new long[messages.size() + 1];
        for (int p = messages.size() - 1; p >= 0; p--) {
            suffix[p] = suffix[p + 1] + tokens.get(p);
        }
    }

    static ContextBase of(State s, TokenCounter counter) {
        return new ContextBase(s, counter);
    }

    private void add(Message m, int transcriptIndex, TokenCounter counter) {
        if (messages.isEmpty() || m.role() == Role.USER) {
            unitStarts.add(messages.size());
        }
        messages.add(m);
        index.add(transcriptIndex);
        tokens.add(counter.count(m));
    }

    /** The first unit a view may start with: 0, or 1 when unit 0 does not begin with a user message. */
    int firstUsableUnit() {
        boolean headless = !messages.isEmpty() && messages.get(0).role() != Role.USER;
        return headless && unitStarts.size() > 1 ? 1 : 0;
    }

    int lastUnit() {
        return Math.max(0, unitStarts.size() - 1);
    }

    int units() {
        return unitStarts.size();
    }

    /** Tokens of the messages from unit {@code u} to the end. */
    long tokensFrom(int u) {
        return suffix[positionOf(u)];
    }

    int messagesFrom(int u) {
        return messages.size() - positionOf(u);
    }

    int positionOf(int u) {
        return u >= unitStarts.size() ? messages.size() : unitStarts.get(u);
    }

    /**
     * The view made of units {@code u..last}; {@code budget} and {@code warning} are the policy's. With
     * recall on ({@link ContextLimits#recall()}), the state's recalled messages older than the view
     * follow the summary (or open the view) as one user message.
     */
    ContextView viewFrom(int u, ContextLimits limits, long budget, String warning) {
        int from = positionOf(u);
        List<Message> view = new ArrayList<>(messages.subList(from, messages.size()));
        long total = limits.fixedTokens() + tokensFrom(u);
        int originals = 0;
        int first = state.messages().size();
        for (int p = from; p < messages.size(); p++) {
            originals += index.get(p) >= 0 ? 1 : 0;
            first = index.get(p) >= 0 ? Math.min(first, index.get(p)) : first;
        }
        if (limits.recall() != null) {
            List<dev.threadline.core.state.RecalledMessage> shown = ContextRecall.shown(state.recalled(), state.messages(),
                    state.contextStart(), first);
            if (!shown.isEmpty()) {
                Message block = ContextRecall.render(shown, state.messages());
                view.add(from < messages.size() && index.get(from) < 0 ? 1 : 0, block);
                total += counter.count(block);
            }
        }
        return new ContextView(view, total, budget, contextSize - originals, warning, first);
    }

    /** The message without blank text blocks; null for an assistant message left with nothing to say. */
    static Message sanitize(Message m) {
        if (m.role() == Role.TOOL) {
            return m;
        }
        boolean blank = false;
        for (ContentBlock b : m.content()) {
            blank |= b instanceof ContentBlock.Text t && t.text().isBlank();
        }
        if (!blank) {
            return m.content().isEmpty() && m.role() == Role.ASSISTANT ? null : m;
        }
        List<ContentBlock> kept = m.content().stream()
                .filter(b -> !(b instanceof ContentBlock.Text t && t.text().isBlank())).toList();
        if (kept.isEmpty()) {
            return m.role() == Role.ASSISTANT ? null : m;
        }
        return new Message(m.role(), kept, m.stopReason(), m.usage());
    }
}
