package dev.threadline.core.runtime;

/**
 * Hears what a turn produces as it is produced, before it is journalled: the text of each model reply
 * as it streams (from providers that stream; others give each reply's text at once). Not journalled:
 * only whole messages are. Passed per command with {@link CommandOptions#streaming}; called on the
 * turn's thread, in order, so implementations need not be thread-safe but must return promptly. An
 * exception it throws is logged and ignored.
 */
@FunctionalInterface
public interface TurnListener {

    /** One piece of a model reply's text. */
    void onTextDelta(TextDelta delta);

    /**
     * A piece of text.
     *
     * @param modelCall which model call of this command produced it, from 1
     * @param text      the new text (append it to what came before)
     */
    record TextDelta(int modelCall, String text) {}
}
