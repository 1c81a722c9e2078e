package dev.threadline.server;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.SweepResult;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's retention: sweeps its runtime's store every {@link RetentionPolicy#sweepEvery()} on a
 * thread of its own (and prunes its tenants' histories every {@link RetentionPolicy#pruneEvery()} when a
 * {@link RetentionPolicy#historyKeep()} is set), each tick passing again while a pass removes its whole limit (at most
 * {@value #MAX_PASSES} passes a tick), and counts what went in the metrics. A failing sweep (the store
 * unreachable) is logged once until one succeeds again. Thread-safe.
 */
final class Sweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadlineServer.class);
    static final int MAX_PASSES = 10;

    private final Threadline runtime;
    private final RetentionPolicy policy;
    private final ServerMetrics metrics;
    private final ScheduledExecutorService thread;
    private final java.util.function.Supplier<java.util.Collection<String>> tenants;
    private boolean failing; // only the sweep thread reads and writes it
    private boolean pruneFailing; // likewise

    private Sweeper(Threadline runtime, RetentionPolicy policy, ServerMetrics metrics,
                    java.util.function.Supplier<java.util.Collection<String>> tenants) {
        this.runtime = runtime;
        this.tenants = tenants;
        this.policy = policy;
        this.metrics = metrics;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "threadline-sweeper");
            t.setDaemon(true);
            return t;
        });
        long every = policy.sweepEvery().toMillis();
        if (every > 0) {
            thread.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
        }
        if (policy.historyKeep() != null) { // on the same thread: a prune never overlaps a sweep of this server
            long prune = policy.pruneEvery().toMillis();
            thread.scheduleWithFixedDelay(this::prune, prune, prune, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A sweeper of {@code runtime} that prunes the sessions of {@code tenants} (read at each pass), or null when
     * {@code policy} neither sweeps nor prunes.
     */
    static Sweeper start(Threadline runtime, RetentionPolicy policy, ServerMetrics metrics,
                         java.util.function.Supplier<java.util.Collection<String>> tenants) {
        return policy.sweepEvery().isZero() && policy.historyKeep() == null ? null : new Sweeper(runtime, policy, metrics, tenants);
    }

    /** One pruning pass over every tenant (ADR 0045); a failure is logged once until a pass succeeds again. */
    void prune() {
        try {
            for (String tenant : tenants.get()) {
                dev.threadline.core.runtime.PruneSweep r = runtime.lifecycle().pruneTenant(tenant, policy.historyKeep());
                metrics.pruned(r);
                if (r.pruned() > 0) {
                    LOG.debug("pruning: {} session(s) of tenant {} pruned ({} events removed); {} held, {} leased elsewhere",
                            r.pruned(), tenant, r.eventsRemoved(), r.held(), r.running());
                }
            }
            metrics.prunePass(true);
            if (pruneFailing) {
                pruneFailing = false;
                LOG.info("pruning: works again");
            }
        } catch (RuntimeException e) {
            metrics.prunePass(false);
            if (!pruneFailing) {
                pruneFailing = true;
                LOG.warn("pruning: a pass failed ({}); retrying every {}", e.getMessage(), policy.pruneEvery());
            }
        }
    }

    private void tick() {
        try {
            for (int pass = 0; pass < MAX_PASSES; pass++) {
                SweepResult r = runtime.sweep(policy.sweepLimit());
                metrics.swept(r);
                if (r.removed() > 0) {
                    LOG.debug("retention: removed {} expired session(s); kept {} leased and {} with live branches",
                            r.removed(), r.running(), r.withBranches());
                }
                if (failing) {
                    failing = false;
                    LOG.info("retention: sweeping works again");
                }
                if (r.removed() < policy.sweepLimit()) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            metrics.sweepFailed();
            if (!failing) {
                failing = true;
                LOG.warn("retention: a sweep failed ({}); retrying every {}", e.getMessage(), policy.sweepEvery());
            }
        }
    }

    /** Stops sweeping; a pass under way finishes first (bounded by the store's timeouts). */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
