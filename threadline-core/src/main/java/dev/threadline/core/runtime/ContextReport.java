package dev.threadline.core.runtime;

import dev.threadline.core.context.ContextPolicy;

/**
 * The size of a session's context as the next model call would see it ({@link Session#context()}).
 *
 * @param policy          the session's context policy
 * @param messages        messages in the view (a summary counts as one)
 * @param omitted         messages since the last clear the view holds only as a summary, or drops
 * @param tokens          the request's input tokens: system prompt, tools and the view
 * @param exact           whether the model's provider counted them (else a local tokenizer approximated)
 * @param counter         who counted
 * @param windowTokens    the model's context window
 * @param maxOutputTokens the room kept for the reply
 * @param budget          the input tokens the policy aims to stay under
 * @param warning         null, or why the view is over its budget
 */
public record ContextReport(ContextPolicy policy, int messages, int omitted, long tokens, boolean exact, String counter,
                            int windowTokens, int maxOutputTokens, long budget, String warning) {

    /** The share of the window the request fills, in percent. */
    public double percentOfWindow() {
        return 100.0 * tokens / windowTokens;
    }
}
