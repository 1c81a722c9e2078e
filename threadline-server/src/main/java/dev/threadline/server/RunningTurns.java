package dev.threadline.server;

import dev.threadline.server.http.Limits;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.EventListener;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.server.http.ApiException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The turn commands this node is running or has queued (submit, approve, deny, answer), so that
 * shutdown can let them finish or interrupt them, the queue depth can be measured, and a turn that
 * appends more events than {@link Limits#maxEventsPerTurn()} is interrupted (its command then answers
 * 429). Every turn command the server runs goes through {@link #start} or {@link #run}, with a
 * command id. Thread-safe.
 */
final class RunningTurns {
    private static final class Running {
        final Session session;
        final String tenant;
        final CompletableFuture<TurnResult> turn;
        final AtomicInteger events = new AtomicInteger();
        final AtomicBoolean limited = new AtomicBoolean();

        Running(Session session, String tenant, CompletableFuture<TurnResult> turn) {
            this.session = session;
            this.tenant = tenant;
            this.turn = turn;
        }
    }

    private final Map<String, Running> byCommand = new ConcurrentHashMap<>();
    private final ServerMetrics metrics;
    private final int maxEvents;

    RunningTurns(ServerMetrics metrics, int maxEventsPerTurn) {
        this.metrics = metrics;
        this.maxEvents = maxEventsPerTurn;
        metrics.queueDepth(this::queueDepth);
    }

    /** Queues a turn on {@code session} (the runtime runs it on its own thread) and tracks it until it ends. */
    CompletableFuture<TurnResult> start(String tenant, Session session, String text, CommandOptions options) {
        return track(tenant, session, options, () -> session.with(options).async().submit(text));
    }

    /**
     * Runs a command that continues a suspended turn ({@code approve}, {@code deny}, {@code answer}) on a
     * virtual thread of its own, tracked like a turn.
     */
    CompletableFuture<TurnResult> run(String tenant, Session session, CommandOptions options, Supplier<TurnResult> command) {
        return track(tenant, session, options, () -> {
            CompletableFuture<TurnResult> turn = new CompletableFuture<>();
            Thread.ofVirtual().name("threadline-command-" + session.id()).start(() -> {
                try {
                    turn.complete(command.get());
                } catch (Throwable e) {
                    turn.completeExceptionally(e);
                }
            });
            return turn;
        });
    }

    private CompletableFuture<TurnResult> track(String tenant, Session session, CommandOptions options,
                                                Supplier<CompletableFuture<TurnResult>> begin) {
        String key = key(tenant, session.id(), options.commandId().orElseThrow());
        CompletableFuture<TurnResult> started = new CompletableFuture<>();
        Running r = new Running(session, tenant, started);
        Running earlier = byCommand.putIfAbsent(key, r);
        metrics.turnsRunning().incrementAndGet();
        CompletableFuture<TurnResult> turn;
        try {
            turn = begin.get();
        } catch (RuntimeException e) {
            turn = CompletableFuture.failedFuture(e);
        }
        turn.whenComplete((result, error) -> {
            if (earlier == null) {
                byCommand.remove(key, r);
            }
            metrics.turnsRunning().decrementAndGet();
            if (error != null) {
                metrics.turnFailed(error);
            } else {
                metrics.turnEnded(result);
            }
        });
        turn.whenComplete((result, error) -> {
            if (error != null) {
                started.completeExceptionally(error);
            } else {
                started.complete(result);
            }
        });
        return started.thenApply(result -> {
            if (r.limited.get()) {
                throw new CompletionException(new ApiException(429, "too-many-events", null, "the turn appended more than "
                        + maxEvents + " events, the server's limit per turn, and was interrupted (recorded in the journal)"));
            }
            return result;
        });
    }

    /** Counts each tracked command's events as they are committed and interrupts a turn past the limit. */
    EventListener eventCounter(String tenant) {
        return (sessionId, committed, state) -> {
            for (StoredEvent e : committed) {
                Running r = e.commandId() == null ? null : byCommand.get(key(tenant, sessionId, e.commandId()));
                if (r != null && r.events.incrementAndGet() > maxEvents && r.limited.compareAndSet(false, true)) {
                    Thread.ofVirtual().start(r.session::interrupt); // not on the committing thread
                }
            }
        };
    }

    private static String key(String tenant, String session, String commandId) {
        return tenant + "\u0000" + session + "\u0000" + commandId;
    }

    /** Commands waiting behind another command of the same session on this node. */
    int queueDepth() {
        List<Running> all = List.copyOf(byCommand.values());
        long sessions = all.stream().map(r -> r.tenant + "\u0000" + r.session.id()).distinct().count();
        return (int) (all.size() - sessions);
    }

    /**
     * Waits up to {@code grace} for running turns to end, then interrupts the rest and waits for them
     * to record their interruption (bounded by another {@code grace}).
     */
    void drain(Duration grace) {
        if (!awaitAll(grace)) {
            List.copyOf(byCommand.values()).forEach(r -> r.session.interrupt());
            awaitAll(grace);
        }
    }

    private boolean awaitAll(Duration grace) {
        CompletableFuture<?>[] all = byCommand.values().stream().map(r -> r.turn).toArray(CompletableFuture[]::new);
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
