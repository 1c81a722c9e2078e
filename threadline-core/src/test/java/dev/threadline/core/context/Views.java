package dev.threadline.core.context;

import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.State;
import java.util.List;

/** Limits and checks shared by the context tests. */
public final class Views {
    /** A roomy window: nothing is over budget. */
    public static final ContextLimits LIMITS = ContextLimits.of(200_000, 4096, "", List.of(), TokenCounter.approximate());

    private Views() {}

    /** Limits of a small window, with a system prompt. */
    public static ContextLimits small(int window, int maxOutput) {
        return ContextLimits.of(window, maxOutput, "You are a test.", List.of(), TokenCounter.approximate());
    }

    /** Transcript index of the last user message at or after the context's start, or -1. */
    public static int currentTurnStart(State s) {
        for (int i = s.messages().size() - 1; i >= s.contextStart(); i--) {
            if (s.messages().get(i).role() == Role.USER) {
                return i;
            }
        }
        return -1;
    }

    public static boolean isSummary(Message m) {
        return m.role() == Role.USER && m.text().startsWith(ContextBase.SUMMARY_PREFIX);
    }
}
