package dev.threadline.core.runtime;

/**
 * Hears what a turn produces as it is produced, before it is journalled: the text of each model reply
 * and the JSON arguments of each tool call it makes, as they stream (from providers that stream;
 * others give each reply's text and each call's arguments at once). Not journalled:
 * only whole messages are. Passed per command with {@link CommandOptions#streaming}; called one piece
 * at a time, in order (from the thread the model call runs on, which is not the turn's: an interrupt
 * abandons that call), so implementations need not be thread-safe but must return promptly. Nothing
 * reaches it after the command returned, nor after an interrupt abandoned the call. An exception it
 * throws is logged and ignored.
 */
@FunctionalInterface
public interface TurnListener {

    /** One piece of a model reply's text. */
    void onTextDelta(TextDelta delta);

    /**
     * One piece of a tool call's JSON arguments, as the model writes them; the pieces of one call,
     * concatenated, are its input JSON. The call itself is journalled only once the reply is whole
     * (and a call cut off mid-reply never is). The default ignores it.
     */
    default void onToolInputDelta(ToolInputDelta delta) {}

    /**
     * A piece of text.
     *
     * @param modelCall which model call of this command produced it, from 1
     * @param text      the new text (append it to what came before)
     */
    record TextDelta(int modelCall, String text) {}

    /**
     * A piece of a tool call's arguments.
     *
     * @param modelCall   which model call of this command produced it, from 1
     * @param toolUseId   the call's tool_use id
     * @param toolName    the tool called
     * @param partialJson the next characters of the call's input JSON
     */
    record ToolInputDelta(int modelCall, String toolUseId, String toolName, String partialJson) {}
}
