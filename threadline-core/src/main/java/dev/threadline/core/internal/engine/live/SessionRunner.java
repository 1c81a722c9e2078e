package dev.threadline.core.internal.engine.live;

import dev.threadline.core.error.Require;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.internal.engine.trace.Tracing;
import dev.threadline.core.store.SessionKey;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs each session's commands one at a time, in arrival order, through the session's {@link Mailbox}
 * in the {@link LiveRegistry}; different sessions run in parallel, each drain on a thread of the
 * executor (virtual threads by default). A mailbox pins its entry only while it has work, so idle
 * sessions cost nothing here. Thread-safe. {@link #close()} refuses new commands and lets queued ones
 * finish.
 */
public final class SessionRunner implements AutoCloseable {
    private final LiveRegistry registry;
    private final ExecutorService executor;
    private final Tracing tracing;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Commands run on {@code executor}'s threads; the runner closes it. */
    public SessionRunner(LiveRegistry registry, ExecutorService executor) {
        this(registry, executor, Tracing.OFF);
    }

    /**
     * Commands run on {@code executor}'s threads, each in the trace context of the thread that queued it
     * (so a turn's span is a child of the request's); the runner closes the executor.
     */
    public SessionRunner(LiveRegistry registry, ExecutorService executor, Tracing tracing) {
        this.registry = Require.nonNull(registry, "registry");
        this.executor = Require.nonNull(executor, "executor");
        this.tracing = Require.nonNull(tracing, "tracing");
    }

    /** Queues {@code command} behind the session's earlier commands; the future completes with its result. */
    public <T> CompletableFuture<T> submit(SessionKey key, Callable<T> queued) {
        Require.nonNull(queued, "command");
        refuseWhenClosed();
        Callable<T> command = tracing.wrap(queued);
        CompletableFuture<T> future = new CompletableFuture<>();
        Runnable task = () -> {
            try {
                future.complete(command.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        };
        LiveSession entry = registry.pin(key);
        Mailbox box = entry.mailbox;
        boolean start;
        synchronized (box) {
            box.queue.add(task);
            start = !box.running;
            box.running = true;
        }
        registry.queued(1);
        if (start) {
            registry.busy(1);
            executor.execute(() -> drain(entry)); // the drain keeps this pin
        } else {
            registry.unpin(entry); // the running drain holds the entry
        }
        return future;
    }

    /**
     * Runs {@code command} in the session's order and waits for its result. When the session has
     * nothing queued or running, the command runs at once on the calling thread (no hand-off to
     * another thread); otherwise it queues like {@link #submit}. Either way commands of one session
     * never overlap and keep their arrival order.
     */
    public <T> T call(SessionKey key, Callable<T> command) throws Exception {
        Require.nonNull(command, "command");
        refuseWhenClosed();
        LiveSession entry = registry.pin(key);
        Mailbox box = entry.mailbox;
        boolean claimed;
        synchronized (box) {
            claimed = !box.running && box.queue.isEmpty();
            box.running |= claimed;
        }
        if (!claimed) {
            registry.unpin(entry);
            return join(submit(key, command));
        }
        registry.busy(1);
        try {
            return command.call();
        } finally {
            boolean more;
            synchronized (box) {
                more = !box.queue.isEmpty();
                box.running = more;
            }
            if (more) {
                executor.execute(() -> drain(entry)); // what queued meanwhile; the drain keeps the pin
            } else {
                registry.busy(-1);
                registry.unpin(entry);
            }
        }
    }

    /** Runs {@code task} on one of the runner's threads, outside every session's order. */
    public void execute(Runnable task) {
        executor.execute(task);
    }

    private void drain(LiveSession entry) {
        Mailbox box = entry.mailbox;
        while (true) {
            Runnable next;
            synchronized (box) {
                next = box.queue.poll();
                if (next == null) {
                    box.running = false;
                    break;
                }
            }
            registry.queued(-1);
            next.run();
        }
        registry.busy(-1);
        registry.unpin(entry);
    }

    private void refuseWhenClosed() {
        if (closed.get()) {
            throw new ThreadlineException("the session runner is closed; no new commands are accepted");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            executor.close(); // waits for running drains
        }
    }

    /** Waits for a queued command's outcome, rethrowing what it threw. */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThreadlineException("interrupted while waiting for the session's command", e);
        } catch (ExecutionException | CompletionException e) {
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
