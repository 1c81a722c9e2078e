package dev.threadline.springai;

import dev.threadline.chatmemory.CallIds;
import dev.threadline.core.model.Message;

/**
 * One entry of a conversation's view in a framework-neutral, canonical form: a Threadline message whose
 * tool ids are the framework's ({@link CallIds#neutral}), or a system message's text. Immutable.
 */
sealed interface Item {

    /** A user, assistant or tool message. */
    record Msg(Message message) implements Item {}

    /** A system message. */
    record Sys(String text) implements Item {}
}
