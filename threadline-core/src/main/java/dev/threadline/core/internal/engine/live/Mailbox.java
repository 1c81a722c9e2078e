package dev.threadline.core.internal.engine.live;

import java.util.ArrayDeque;

/**
 * A session's queue of commands (the {@link SessionRunner}'s per-session state): the commands waiting,
 * and whether one runs now (a drain on a runner thread, or one run inline on its caller's thread). While
 * one runs, the mailbox holds one pin on its {@link LiveSession}. Guarded by its own monitor.
 */
final class Mailbox {
    final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    boolean running;
}
