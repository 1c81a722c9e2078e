package dev.threadline.server.webhooks;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One delivery pass over a tenant's webhooks, built on the journal as the outbox (ADR 0041): under the
 * tenant's delivery lease, it finds the sessions whose head is past a subscription's cursor (the
 * sessions index by recency, back to a watermark, plus those still owing a delivery), reads their new
 * events, sends the ones each subscription wants in seq order (a failure stops that session's delivery
 * until its retry: order per session is kept), and writes the moved cursors and given-up deliveries as
 * one step of the tenant's records. A delivery is sent before its cursor is written, so a crash in
 * between sends it again: at least once. Retries back off exponentially from {@code firstBackoff} up to
 * {@code maxBackoff}; a delivery still failing {@code retryFor} after its first try is given up, recorded
 * as a {@link Failure}, and the session's next events go on. Called by one thread at a time.
 */
final class Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    /** The most events read from one session per pass. */
    private static final int BATCH = 200;
    /** Cursor writes kept back at most this many deliveries (a crash sends them again). */
    private static final int FLUSH_EVERY = 50;
    /** The clock skew between nodes a watermark allows for. */
    private static final Duration SKEW = Duration.ofMinutes(1);

    private final WebhookStore records;
    private final SessionIndex index;
    private final Journal journal;
    private final DeliveryLeases leases;
    private final Sender sender;
    private final Clock clock;
    private final WebhookSettings settings;
    private final Removals removals;
    /** Per tenant: sessions updated before this were scanned already (null: scan all, as after a start). */
    private final Map<String, Instant> watermarks = new ConcurrentHashMap<>();
    /** Per tenant: sessions that still owe a delivery (a retry waits, or a batch was cut). */
    private final Map<String, Set<String>> owing = new ConcurrentHashMap<>();

    Dispatcher(WebhookStore records, SessionIndex index, Journal journal, DeliveryLeases leases, Sender sender, Clock clock,
               WebhookSettings settings) {
        this.records = records;
        this.index = index;
        this.journal = journal;
        this.leases = leases;
        this.sender = sender;
        this.clock = clock;
        this.settings = settings;
        this.removals = new Removals(records, index, sender, clock, settings);
    }

    /** One pass over the tenant; returns how many deliveries were attempted, or -1 when the tenant has no subscriptions. */
    int pass(String tenant) {
        WebhookStore.Records r = records.read(tenant);
        if (r.subscriptions().isEmpty()) {
            leases.release(tenant);
            forget(tenant);
            return -1;
        }
        if (!leases.hold(tenant)) {
            watermarks.remove(tenant); // another node delivers; if it stops, this one starts over from the cursors
            owing.remove(tenant);
            return 0;
        }
        Pass p = new Pass(tenant, r);
        Instant newest = null;
        for (SessionSummary s : candidates(tenant)) {
            newest = newest == null || s.updatedAt().isAfter(newest) ? s.updatedAt() : newest;
            if (!p.session(s)) {
                break; // the lease is gone: another node goes on from the cursors written so far
            }
        }
        if (removals.due(tenant)) {
            p.attempts += removals.pass(p.r, p.removed, p.moved, p.failed, leases, tenant);
        }
        p.flush();
        if (newest != null) {
            watermarks.put(tenant, newest.minus(SKEW));
        }
        return p.attempts;
    }

    /** Forgets what this node knew of a tenant (its lease was lost or its last subscription removed). */
    void forget(String tenant) {
        watermarks.remove(tenant);
        owing.remove(tenant);
    }

    /** The sessions to look at: by recency down to the watermark, then those owing a delivery. */
    private List<SessionSummary> candidates(String tenant) {
        Instant mark = watermarks.get(tenant);
        Map<String, SessionSummary> out = new LinkedHashMap<>();
        String cursor = null;
        page:
        do {
            Page<SessionSummary> page = index.list(new SessionQuery(tenant, null, null, 500, cursor));
            for (SessionSummary s : page.items()) {
                if (mark != null && s.updatedAt().isBefore(mark)) {
                    break page;
                }
                out.put(s.info().id(), s);
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        for (String id : owing.getOrDefault(tenant, Set.of())) {
            if (!out.containsKey(id)) {
                SessionKey key = new SessionKey(tenant, id);
                try {
                    index.session(key).ifPresent(info -> out.put(id, new SessionSummary(info, journal.head(key), Instant.EPOCH)));
                } catch (SessionNotFoundException gone) {
                    // removed meanwhile
                }
            }
        }
        owing.remove(tenant);
        return new ArrayList<>(out.values());
    }

    /** The deliveries of one pass, and the cursors they moved (written every {@value FLUSH_EVERY} deliveries and at the end). */
    private final class Pass {
        final String tenant;
        final WebhookStore.Records r;
        final Map<String, Cursor> moved = new LinkedHashMap<>();
        final Map<String, Failure> failed = new LinkedHashMap<>();
        final Set<String> removed = new java.util.LinkedHashSet<>();
        int attempts;
        int unflushed;

        Pass(String tenant, WebhookStore.Records r) {
            this.tenant = tenant;
            this.r = r;
        }

        /** Delivers what each subscription is owed in this session; false when the lease was lost. */
        boolean session(SessionSummary s) {
            for (Subscription sub : r.subscriptions()) {
                String name = WebhookStore.cursorName(sub.id(), s.info().id());
                Cursor c = moved.containsKey(name) ? moved.get(name) : r.cursor(sub.id(), s.info().id()).orElse(null);
                if (c == null) {
                    if (s.updatedAt().isBefore(sub.createdAt().minus(SKEW))) {
                        continue; // nothing new since the subscription was made
                    }
                    c = Cursor.at(s.info().parentId() != null ? s.info().parentSeq() : 0, s.info().expiresAt());
                } else if (!java.util.Objects.equals(c.expiresAt(), s.info().expiresAt()) && s.headSeq() > c.seq()) {
                    c = new Cursor(c.seq(), c.attempts(), c.failingSince(), c.nextAttempt(), s.info().expiresAt());
                }
                Cursor before = c;
                Optional<Cursor> after = deliver(sub, s, c);
                if (after.isEmpty()) {
                    return false;
                }
                c = after.get();
                if (!c.equals(before) || r.cursor(sub.id(), s.info().id()).isEmpty()) {
                    moved.put(name, c);
                }
                if (c.seq() < s.headSeq()) {
                    owing.computeIfAbsent(tenant, t -> ConcurrentHashMap.newKeySet()).add(s.info().id());
                }
            }
            return true;
        }

        /** Sends the subscription's due events of the session from {@code c}; the cursor after, or empty when the lease was lost. */
        private Optional<Cursor> deliver(Subscription sub, SessionSummary s, Cursor c) {
            if (c.seq() >= s.headSeq()) {
                return Optional.of(c);
            }
            Instant now = clock.instant();
            if (c.nextAttempt() != null && now.isBefore(c.nextAttempt())) {
                return Optional.of(c);
            }
            SessionKey key = new SessionKey(tenant, s.info().id());
            List<StoredEvent> events;
            try {
                events = journal.readOwn(key, c.seq() + 1, Math.min(s.headSeq(), c.seq() + BATCH));
            } catch (SessionNotFoundException gone) {
                return Optional.of(c);
            }
            for (StoredEvent e : events) {
                Optional<String> type = WebhookEvents.type(e.event());
                if (type.isEmpty() || !sub.wants(type.get()) || e.time().isBefore(sub.createdAt())) {
                    c = c.past(e.seq());
                    continue;
                }
                if (!leases.hold(tenant)) {
                    return Optional.empty();
                }
                attempts++;
                Sender.Outcome o = sender.send(sub, WebhookEvents.id(e.sessionId(), e.seq()), WebhookEvents.body(type.get(), tenant, e));
                if (o.delivered()) {
                    c = Cursor.at(e.seq(), c.expiresAt());
                } else {
                    int tries = c.attempts() + 1;
                    Instant since = c.failingSince() != null ? c.failingSince() : now;
                    if (now.isBefore(since.plus(settings.retryFor()))) {
                        LOG.debug("webhook {}: {} of session {} failed ({}), try {}", sub.id(), e.seq(), e.sessionId(), o.error(), tries);
                        return Optional.of(c.failed(tries, since, now.plus(settings.backoff(tries))));
                    }
                    Failure f = new Failure(e.sessionId(), e.seq(), type.get(), tries, o.error(), now);
                    failed.put(WebhookStore.failureName(sub.id(), f), f);
                    LOG.warn("webhook {}: gave up {} of session {} after {} tries over {} ({})", sub.id(), e.seq(), e.sessionId(), tries,
                            settings.retryFor(), o.error());
                    c = Cursor.at(e.seq(), c.expiresAt());
                }
                if (++unflushed >= FLUSH_EVERY) {
                    moved.put(WebhookStore.cursorName(sub.id(), s.info().id()), c);
                    flush();
                }
            }
            return Optional.of(c);
        }

        void flush() {
            if (!moved.isEmpty() || !failed.isEmpty() || !removed.isEmpty()) {
                records.write(tenant, moved, failed, removed);
                moved.clear();
                failed.clear();
                removed.clear();
            }
            unflushed = 0;
        }
    }
}
