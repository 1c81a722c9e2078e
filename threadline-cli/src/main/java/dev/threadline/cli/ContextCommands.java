package dev.threadline.cli;

import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.CompactionResult;
import dev.threadline.core.runtime.ContextReport;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.state.Compaction;
import java.io.PrintWriter;
import java.util.Locale;

/** The REPL's context commands: {@code /usage} and {@code /compact}, and the note after an automatic compaction. */
final class ContextCommands {
    private ContextCommands() {}

    /** Session totals (every model call, summaries included) and the next request's size against the window. */
    static void usage(PrintWriter out, Session session) {
        Usage u = session.state().usage();
        ContextReport c = session.context();
        out.println("tokens used by this session (every model call, compaction summaries included):");
        out.println("  input " + n(u.inputTokens()) + "   output " + n(u.outputTokens()) + "   cache read " + n(u.cacheReadTokens())
                + "   cache write " + n(u.cacheWriteTokens()) + "   total " + n(u.totalTokens())
                + (u.costMicros() == 0 ? "" : "   cost " + dev.threadline.core.state.Budget.amount(u.costMicros())));
        out.println("context the next model call sends:");
        out.println(String.format(Locale.ROOT, "  %s of %s tokens (%.1f%% of the window), %d message%s%s", n(c.tokens()),
                n(c.windowTokens()), c.percentOfWindow(), c.messages(), c.messages() == 1 ? "" : "s",
                c.omitted() == 0 ? "" : ", " + c.omitted() + " earlier ones summarised or left out (still in the journal)"));
        out.println("  policy " + c.policy() + " (budget " + n(c.budget()) + " tokens), reply limit " + n(c.maxOutputTokens())
                + ", counted by " + c.counter() + (c.exact() ? " (exact)" : ""));
        if (c.warning() != null) {
            out.println("  warning: " + c.warning());
        }
    }

    /** The budget in force beside what the session spent. */
    static void budget(PrintWriter out, dev.threadline.core.state.Budget budget, Usage spent) {
        dev.threadline.core.state.Budget b = budget == null ? dev.threadline.core.state.Budget.NONE : budget;
        out.println("budget: " + (b.tokens() == 0 ? "no token limit" : n(b.tokens()) + " tokens") + ", "
                + (b.costMicros() == 0 ? "no cost limit" : "cost " + dev.threadline.core.state.Budget.amount(b.costMicros())) + "; spent " + n(spent.totalTokens())
                + " tokens" + (spent.costMicros() == 0 ? "" : ", cost " + dev.threadline.core.state.Budget.amount(spent.costMicros())));
    }

    /**
     * {@code /budget}'s argument: {@code TOKENS}, {@code cost=AMOUNT} or both ({@code 0}: no limit).
     *
     * @throws dev.threadline.core.error.InvalidInputException naming {@code /budget} when it is neither
     */
    static dev.threadline.core.state.Budget parseBudget(String arg) {
        long tokens = 0;
        long cost = 0;
        for (String part : arg.strip().split("\\s+")) {
            if (part.startsWith("cost=")) {
                cost = dev.threadline.core.state.Budget.micros(part.substring(5), "/budget cost");
            } else {
                try {
                    tokens = Long.parseLong(part.replace(",", "").replace("_", ""));
                } catch (NumberFormatException e) {
                    throw new dev.threadline.core.error.InvalidInputException("/budget", "'" + part
                            + "' is neither a token count nor cost=AMOUNT (e.g. /budget 200000 cost=2.50)");
                }
            }
        }
        return new dev.threadline.core.state.Budget(tokens, cost);
    }


    /** Summarises the whole context now (an edit step); {@code focus} may be empty. */
    static void compact(PrintWriter out, Session session, String focus) {
        CompactionResult r = session.compact(focus.isBlank() ? null : focus);
        if (!r.compacted()) {
            out.println("Nothing to compact: no messages since the last clear or compaction.");
            return;
        }
        out.println("Compacted " + r.summarised() + " messages into a summary: the context went from " + n(r.tokensBefore())
                + " to " + n(r.tokensAfter()) + " tokens. The original messages stay in the journal (/history shows them).");
    }

    /** Tells the user when a turn compacted the context on its way. */
    static void noteCompaction(PrintWriter out, Compaction before, Compaction after) {
        if (after != null && !after.equals(before)) {
            out.println("  (context compacted: older turns were summarised to stay inside the model's window;"
                    + " /history still shows everything)");
        }
    }

    private static String n(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
