package dev.threadline.server;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.EventListener;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.server.http.ApiException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The server's own policy on the turn commands it sends (submit, approve, deny, answer): a turn that
 * appends more events than {@link Limits#maxEventsPerTurn()} is interrupted and its command answers
 * 429 {@code too-many-events}, and every command's outcome is counted ({@link ServerMetrics#turnEnded},
 * {@link ServerMetrics#turnFailed}).
 *
 * <p>It knows a command only while it counts its events, by tenant, session and command id. What runs
 * or waits on this node, for the gauges and for shutdown, is the engine's to know
 * ({@link dev.threadline.core.Threadline#live()}), not this class's. Thread-safe.
 */
final class TurnLimit {
    /** One followed command: its session (to interrupt it) and the events its turn appended so far. */
    private static final class Counted {
        final Session session;
        final AtomicInteger events = new AtomicInteger();
        final AtomicBoolean limited = new AtomicBoolean();

        Counted(Session session) {
            this.session = session;
        }
    }

    private final Map<String, Counted> byCommand = new ConcurrentHashMap<>();
    private final ServerMetrics metrics;
    private final int maxEvents;

    TurnLimit(ServerMetrics metrics, int maxEventsPerTurn) {
        this.metrics = metrics;
        this.maxEvents = maxEventsPerTurn;
    }

    /**
     * Sends {@code command} (a turn command queued through {@code session.async()}, with {@code options})
     * and follows it until it ends: its events count towards the limit, its outcome is metered, and a
     * turn stopped at the limit completes with the 429 instead of its result. A {@code command} that
     * throws at once (bad input, a busy session under {@code reject}) is a failed future.
     *
     * @param options must carry the command id the turn's events are recorded with
     */
    CompletableFuture<TurnResult> follow(String tenant, Session session, CommandOptions options,
                                         Supplier<CompletableFuture<TurnResult>> command) {
        String key = key(tenant, session.id(), options.commandId().orElseThrow());
        Counted c = new Counted(session);
        Counted earlier = byCommand.putIfAbsent(key, c); // a retry of a command still running: the first counts
        CompletableFuture<TurnResult> turn;
        try {
            turn = command.get();
        } catch (RuntimeException e) {
            turn = CompletableFuture.failedFuture(e);
        }
        return turn.handle((result, error) -> {
            if (earlier == null) {
                byCommand.remove(key, c);
            }
            if (error != null) {
                metrics.turnFailed(error);
                throw error instanceof CompletionException ce ? ce : new CompletionException(error);
            }
            metrics.turnEnded(result);
            if (c.limited.get()) {
                throw new CompletionException(new ApiException(429, "too-many-events", null, "the turn appended more than "
                        + maxEvents + " events, the server's limit per turn, and was interrupted (recorded in the journal)"));
            }
            return result;
        });
    }

    /**
     * The listener (one per tenant) that counts each followed command's events as they are committed and
     * interrupts a turn past the limit, on a thread of its own: never on the committing thread.
     */
    EventListener eventCounter(String tenant) {
        return (sessionId, committed, state) -> {
            for (StoredEvent e : committed) {
                Counted c = e.commandId() == null ? null : byCommand.get(key(tenant, sessionId, e.commandId()));
                if (c != null && c.events.incrementAndGet() > maxEvents && c.limited.compareAndSet(false, true)) {
                    Thread.ofVirtual().name("threadline-turn-limit-" + sessionId).start(c.session::interrupt);
                }
            }
        };
    }

    private static String key(String tenant, String session, String commandId) {
        return tenant + "\u0000" + session + "\u0000" + commandId;
    }
}
