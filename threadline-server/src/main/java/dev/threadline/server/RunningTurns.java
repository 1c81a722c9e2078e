package dev.threadline.server;

import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The turns this node is running, so that shutdown can let them finish or interrupt them. Every
 * turn the server starts goes through {@link #start}. Thread-safe.
 */
final class RunningTurns {
    private record Running(Session session, CompletableFuture<TurnResult> turn) {}

    private final Set<Running> running = ConcurrentHashMap.newKeySet();
    private final ServerMetrics metrics;

    RunningTurns(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    /** Queues a turn on {@code session} (the runtime runs it on its own thread) and tracks it until it ends. */
    CompletableFuture<TurnResult> start(Session session, String text, CommandOptions options) {
        return track(session, session.submitAsync(text, options));
    }

    /**
     * Runs a command that continues a suspended turn ({@code approve}, {@code deny}, {@code answer}) on a
     * virtual thread of its own, tracked like a turn.
     */
    CompletableFuture<TurnResult> run(Session session, Supplier<TurnResult> command) {
        CompletableFuture<TurnResult> turn = new CompletableFuture<>();
        Thread.ofVirtual().name("threadline-command-" + session.id()).start(() -> {
            try {
                turn.complete(command.get());
            } catch (Throwable e) {
                turn.completeExceptionally(e);
            }
        });
        return track(session, turn);
    }

    private CompletableFuture<TurnResult> track(Session session, CompletableFuture<TurnResult> turn) {
        Running r = new Running(session, turn);
        running.add(r);
        metrics.turnsRunning().incrementAndGet();
        turn.whenComplete((result, error) -> {
            running.remove(r);
            metrics.turnsRunning().decrementAndGet();
            if (error != null) {
                metrics.turnFailed(error);
            } else {
                metrics.turnEnded(result);
            }
        });
        return turn;
    }

    /**
     * Waits up to {@code grace} for running turns to end, then interrupts the rest and waits for them
     * to record their interruption (bounded by another {@code grace}).
     */
    void drain(Duration grace) {
        if (!awaitAll(grace)) {
            List.copyOf(running).forEach(r -> r.session().interrupt());
            awaitAll(grace);
        }
    }

    private boolean awaitAll(Duration grace) {
        CompletableFuture<?>[] all = running.stream().map(Running::turn).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(all).exceptionally(e -> null).get(grace.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return true;
        }
    }
}
