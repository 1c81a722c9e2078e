package dev.threadline.core.runtime;

import dev.threadline.core.Require;
import dev.threadline.core.ThreadlineException;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A mailbox per session: the commands of one session run one at a time, in arrival order; different
 * sessions run in parallel, each drain on its own virtual thread. A mailbox exists only while it has
 * work, so idle sessions cost nothing here. A session is named by any key with value equality (the
 * runtime's {@code SessionKey}, tests' strings).
 *
 * <p>Thread-safe. {@link #close()} refuses new commands and lets queued ones finish.
 */
final class SessionRunner implements AutoCloseable {

    private final ExecutorService executor;
    private final boolean ownsExecutor;
    private final ConcurrentHashMap<Object, Mailbox> mailboxes = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    SessionRunner() {
        this(Executors.newVirtualThreadPerTaskExecutor(), true);
    }

    SessionRunner(ExecutorService executor, boolean ownsExecutor) {
        this.executor = Require.nonNull(executor, "executor");
        this.ownsExecutor = ownsExecutor;
    }

    /** Queues {@code command} behind the session's earlier commands; the future completes with its result. */
    <T> CompletableFuture<T> submit(Object sessionId, Callable<T> command) {
        Require.nonNull(sessionId, "sessionId");
        Require.nonNull(command, "command");
        if (closed.get()) {
            throw new ThreadlineException("the session runner is closed; no new commands are accepted");
        }
        CompletableFuture<T> future = new CompletableFuture<>();
        Runnable task = () -> {
            try {
                future.complete(command.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        };
        while (true) {
            Mailbox mailbox = mailboxes.computeIfAbsent(sessionId, Mailbox::new);
            if (mailbox.offer(task)) {
                return future;
            }
            // that mailbox was just retired after draining; the next computeIfAbsent makes a fresh one
        }
    }

    /**
     * Runs {@code command} in the session's order and waits for its result. When the session has
     * nothing queued or running, the command runs at once on the calling thread (no hand-off to
     * another thread); otherwise it queues like {@link #submit}. Either way commands of one session
     * never overlap and keep their arrival order.
     */
    <T> T call(Object sessionId, Callable<T> command) throws Exception {
        Require.nonNull(sessionId, "sessionId");
        Require.nonNull(command, "command");
        while (true) {
            if (closed.get()) {
                throw new ThreadlineException("the session runner is closed; no new commands are accepted");
            }
            Mailbox mailbox = mailboxes.computeIfAbsent(sessionId, Mailbox::new);
            switch (mailbox.claimIdle()) {
                case RETIRED -> {
                    continue; // retired after draining; the next computeIfAbsent makes a fresh one
                }
                case BUSY -> {
                    return join(submit(sessionId, command));
                }
                case CLAIMED -> {
                    try {
                        return command.call();
                    } finally {
                        mailbox.releaseInline();
                    }
                }
            }
        }
    }

    /** Number of sessions with queued or running commands. */
    int activeSessions() {
        return mailboxes.size();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && ownsExecutor) {
            executor.close(); // waits for running drains
        }
    }

    private final class Mailbox {
        private final Object sessionId;
        private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
        private boolean draining;
        private boolean retired;

        Mailbox(Object sessionId) {
            this.sessionId = sessionId;
        }

        synchronized boolean offer(Runnable task) {
            if (retired) {
                return false;
            }
            queue.add(task);
            if (!draining) {
                draining = true;
                executor.execute(this::drain);
            }
            return true;
        }

        /** Takes the mailbox for one inline command if nothing is queued or running. */
        synchronized Claim claimIdle() {
            if (retired) {
                return Claim.RETIRED;
            }
            if (draining || !queue.isEmpty()) {
                return Claim.BUSY;
            }
            draining = true;
            return Claim.CLAIMED;
        }

        /** After an inline command: hand what queued meanwhile to a drain, or retire. */
        synchronized void releaseInline() {
            if (queue.isEmpty()) {
                draining = false;
                retired = true;
                mailboxes.remove(sessionId, this);
            } else {
                executor.execute(this::drain);
            }
        }

        private void drain() {
            while (true) {
                Runnable next;
                synchronized (this) {
                    next = queue.poll();
                    if (next == null) {
                        draining = false;
                        retired = true;
                        mailboxes.remove(sessionId, this);
                        return;
                    }
                }
                next.run();
            }
        }
    }

    private enum Claim { CLAIMED, BUSY, RETIRED }

    /** Waits for a queued command's outcome, rethrowing what it threw. */
    static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThreadlineException("interrupted while waiting for the session's command", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new ThreadlineException(c.getMessage(), c);
        }
    }
}
