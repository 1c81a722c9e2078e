package dev.threadline.server.webhooks;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.EventListener;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's webhooks: the subscriptions ({@link #records}) and their delivery from the journal (ADR
 * 0041). Opens its own connection to the store (as the key store does), for the store roles delivery
 * reads (sessions index, journal, leases) and a runtime for its records. One thread delivers: a pass
 * over every tenant with subscriptions every {@link WebhookSettings#pollEvery}, and at once when this
 * node commits an event of such a tenant (a listener on that tenant only, taken off when its last
 * subscription goes, so a tenant without subscriptions costs its commits nothing). Nothing is kept in
 * memory that a restart needs: the pass goes on from the cursors in the store. Thread-safe.
 */
public final class Webhooks implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Webhooks.class);

    private final Threadline runtime;
    private final WebhookStore records;
    private final Dispatcher dispatcher;
    private final DeliveryLeases leases;
    private final Sender sender;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean woken = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The listener this node added to each tenant with subscriptions. */
    private final Map<String, EventListener> listening = new ConcurrentHashMap<>();
    /** Tenants this node committed events of, waiting for their pass. */
    private final Set<String> due = ConcurrentHashMap.newKeySet();
    private volatile Function<String, Tenant> tenants;
    private final Duration timeout;

    private Webhooks(StateStore store, Clock clock, WebhookSettings settings, boolean scheduled) {
        this.runtime = Threadline.builder().store(store).leaseLinger(Duration.ZERO).build();
        this.timeout = settings.timeout();
        this.records = new WebhookStore(runtime, clock);
        this.leases = new DeliveryLeases(store, settings.leaseTtl(), Clock.systemUTC()); // a lease lapses by the store's clock
        this.sender = new Sender(settings.timeout(), clock);
        this.dispatcher = new Dispatcher(records, store, store, leases, sender, clock, settings);
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "threadline-webhooks");
            t.setDaemon(true);
            return t;
        });
        if (scheduled) {
            long every = settings.pollEvery().toMillis();
            thread.scheduleWithFixedDelay(this::tick, 0, every, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Webhooks of the store at {@code storeUrl}, delivering by {@code settings} on a thread of their own.
     *
     * @throws dev.threadline.core.error.StorageException      when the store cannot be opened
     * @throws dev.threadline.core.error.InvalidInputException when the URL names no known kind of store
     */
    public static Webhooks start(String storeUrl, WebhookSettings settings) {
        return new Webhooks(StateStores.open(storeUrl), Clock.systemUTC(), settings, true);
    }

    /**
     * Webhooks of the store at {@code storeUrl} that deliver only when {@link #deliverNow} is called, by
     * {@code clock} (tests drive retries by moving it), and the CLI, which only edits subscriptions.
     *
     * @throws dev.threadline.core.error.StorageException      when the store cannot be opened
     * @throws dev.threadline.core.error.InvalidInputException when the URL names no known kind of store
     */
    public static Webhooks manual(String storeUrl, Clock clock, WebhookSettings settings) {
        return new Webhooks(StateStores.open(storeUrl), clock, settings, false);
    }

    /** The subscriptions and their delivery records. */
    public WebhookStore records() {
        return records;
    }

    /**
     * Listens to the commits of {@code tenants}' views (the server's runtime) to deliver without waiting
     * for the poll; only tenants with subscriptions get a listener.
     */
    public void listenTo(Function<String, Tenant> tenants) {
        this.tenants = tenants;
    }

    /** Asks for a pass over {@code tenant} soon (a commit of this node): coalesced, after the pass under way. */
    private void wake(String tenant) {
        if (due.add(tenant) && !closed.get()) {
            try {
                thread.execute(this::tickDue);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // shutting down: the next start goes on from the cursors
            }
        }
    }

    /** Asks for a delivery pass over every tenant soon (after the one under way). */
    public void wake() {
        if (!closed.get() && woken.compareAndSet(false, true)) {
            try {
                thread.execute(this::tick);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                woken.set(false);
            }
        }
    }

    /** One delivery pass over every tenant with subscriptions, on the caller's thread; returns the attempts made. */
    public int deliverNow() {
        int attempts = 0;
        for (String tenant : records.tenants()) {
            attempts += Math.max(0, dispatcher.pass(tenant));
        }
        return attempts;
    }

    /** Every tenant with subscriptions (the poll; also after a subscription is added). */
    private void tick() {
        woken.set(false);
        try {
            Function<String, Tenant> views = tenants;
            for (String tenant : records.tenants()) {
                due.remove(tenant);
                boolean subscribed = pass(tenant) >= 0;
                if (views != null && subscribed && !listening.containsKey(tenant)) {
                    EventListener l = (session, events, state) -> wake(tenant);
                    if (listening.putIfAbsent(tenant, l) == null) {
                        views.apply(tenant).addListener(l);
                    }
                } else if (views != null && !subscribed) {
                    EventListener l = listening.remove(tenant); // its last subscription went: its commits cost nothing again
                    if (l != null) {
                        views.apply(tenant).removeListener(l);
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("webhooks: a delivery pass failed ({}); trying again at the next", e.toString());
        }
    }

    /** The tenants this node committed events of since the last pass. */
    private void tickDue() {
        for (String tenant : List.copyOf(due)) {
            due.remove(tenant);
            pass(tenant);
        }
    }

    /** A pass over the tenant: the attempts made, -1 when it has no subscriptions. */
    private int pass(String tenant) {
        try {
            return dispatcher.pass(tenant);
        } catch (RuntimeException e) {
            LOG.warn("webhooks: a delivery pass of tenant {} failed ({}); trying again at the next", tenant, e.toString());
            return 0;
        }
    }

    /** Stops delivering (a pass under way ends first, bounded by the timeouts) and gives the leases up; closes the store. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        thread.shutdown();
        try {
            if (!thread.awaitTermination(timeout.toMillis() + 5000, TimeUnit.MILLISECONDS)) {
                thread.shutdownNow(); // a pass still sending: it stops before its next delivery (what it sent is sent again later)
                thread.awaitTermination(timeout.toMillis() + 5000, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Function<String, Tenant> views = tenants;
        if (views != null) {
            listening.forEach((t, l) -> views.apply(t).removeListener(l));
        }
        leases.releaseAll();
        sender.close();
        runtime.close();
    }
}
