package dev.threadline.core.internal.engine.live;

import dev.threadline.core.error.Require;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.log.Logs;
import dev.threadline.core.runtime.EventListener;
import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionKey;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;

/**
 * The tenants' listeners and the delivery of committed steps to them. A commit hands its step over
 * ({@link #committed}, called by the writer while it holds the session's write lock, so steps queue in
 * commit order) and goes on; a delivery thread of the executor calls the listeners afterwards, one step
 * at a time per session, in commit order, outside every lock. A slow listener delays only later
 * deliveries of that session, never a write. A listener that throws is logged and skipped. Thread-safe.
 */
public final class Listeners {
    private static final Logger LOG = Logs.get(Listeners.class);

    /** A listener and the tenant whose sessions it hears of. */
    private record Subscription(String tenant, EventListener listener) {}

    private final LiveRegistry registry;
    private final Executor executor;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();

    /** Deliveries run on {@code executor}'s threads. */
    public Listeners(LiveRegistry registry, Executor executor) {
        this.registry = Require.nonNull(registry, "registry");
        this.executor = Require.nonNull(executor, "executor");
    }

    /** Adds {@code listener} for the sessions of {@code tenant}. */
    public void add(String tenant, EventListener listener) {
        subscriptions.add(new Subscription(tenant, Require.nonNull(listener, "listener")));
    }

    /** Removes {@code listener} of {@code tenant}. */
    public void remove(String tenant, EventListener listener) {
        subscriptions.removeIf(s -> s.tenant().equals(tenant) && s.listener() == listener);
    }

    /**
     * Queues a committed step for the tenant's listeners (none: nothing is queued). The caller holds the
     * session's write lock, which keeps the queue in commit order.
     */
    public void committed(SessionKey key, List<StoredEvent> events, State state) {
        if (!heard(key.tenant())) {
            return;
        }
        LiveSession entry = registry.pin(key);
        Deliveries d = entry.deliveries;
        boolean start;
        synchronized (d) {
            d.queue.add(new Deliveries.Step(events, state));
            start = !d.delivering;
            d.delivering = true;
        }
        if (start) {
            try {
                executor.execute(() -> deliver(entry)); // the delivery keeps this pin
            } catch (RejectedExecutionException closing) {
                deliver(entry); // the runtime is closing: the last steps are heard here rather than not at all
            }
        } else {
            registry.unpin(entry);
        }
    }

    private boolean heard(String tenant) {
        for (Subscription s : subscriptions) {
            if (s.tenant().equals(tenant)) {
                return true;
            }
        }
        return false;
    }

    private void deliver(LiveSession entry) {
        Deliveries d = entry.deliveries;
        while (true) {
            Deliveries.Step step;
            synchronized (d) {
                step = d.queue.poll();
                if (step == null) {
                    d.delivering = false;
                    break;
                }
            }
            for (Subscription sub : subscriptions) {
                if (!sub.tenant().equals(entry.key().tenant())) {
                    continue;
                }
                try {
                    sub.listener().onCommit(entry.key().id(), step.events(), step.state());
                } catch (RuntimeException e) {
                    LOG.warn("session {}: a listener failed: {}", entry.key(), e.toString());
                }
            }
        }
        registry.unpin(entry);
    }
}
