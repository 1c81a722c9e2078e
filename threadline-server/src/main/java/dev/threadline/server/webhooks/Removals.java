package dev.threadline.server.webhooks;

import dev.threadline.core.runtime.DataLifecycle;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code session.expired} and {@code session.erased}: a removed session's journal is gone, so its
 * removal is found from the cursors instead (ADR 0041). At most once a {@value #EVERY_SECONDS} s per
 * tenant, each cursor's session is looked up; one that is gone was erased when an erasure receipt names
 * its hash, expired when its expiry (as last seen) has passed, and otherwise deleted (no event). The
 * event ({@code webhook-id} {@code <session>/expired} or {@code /erased}) is sent to the subscriptions
 * that want it, then the cursor goes; a failing one is tried again at the next check, until the retry
 * period ends (then it is recorded as failed). Called by the dispatcher's thread only.
 */
final class Removals {
    private static final long EVERY_SECONDS = 60;

    private final WebhookStore records;
    private final SessionIndex index;
    private final Sender sender;
    private final Clock clock;
    private final WebhookSettings settings;
    private final Map<String, Instant> lastCheck = new ConcurrentHashMap<>();

    Removals(WebhookStore records, SessionIndex index, Sender sender, Clock clock, WebhookSettings settings) {
        this.records = records;
        this.index = index;
        this.sender = sender;
        this.clock = clock;
        this.settings = settings;
    }

    /** Whether the tenant's removals are due for a check (and if so, notes the check). */
    boolean due(String tenant) {
        Instant now = clock.instant();
        Instant last = lastCheck.get(tenant);
        if (last != null && now.isBefore(last.plus(Duration.ofSeconds(EVERY_SECONDS)))) {
            return false;
        }
        lastCheck.put(tenant, now);
        return true;
    }

    /** Sends the removals found among the tenant's cursors, noting the cursors to remove or keep, and the failures; returns the sends. */
    int pass(WebhookStore.Records r, Set<String> removed, Map<String, Cursor> moved, Map<String, Failure> failed, DeliveryLeases leases,
              String tenant) {
        Set<String> erased = null;
        Instant now = clock.instant();
        int sent = 0;
        for (String name : r.variables().keySet()) {
            Optional<String[]> ids = WebhookStore.cursorOf(name);
            if (ids.isEmpty() || moved.containsKey(name)) {
                continue;
            }
            Optional<Subscription> sub = r.subscriptions().stream().filter(s -> s.id().equals(ids.get()[0])).findFirst();
            String session = ids.get()[1];
            if (sub.isEmpty() || index.session(new SessionKey(tenant, session)).isPresent()) {
                continue;
            }
            Cursor c = Cursor.of(r.variables().get(name));
            if (erased == null) {
                erased = erasedHashes(tenant);
            }
            String type = erased.contains(DataLifecycle.hash(tenant, session)) ? WebhookEvents.SESSION_ERASED
                    : c.expiresAt() != null && !c.expiresAt().isAfter(now) ? WebhookEvents.SESSION_EXPIRED : null;
            if (type == null || !sub.get().wants(type)) {
                removed.add(name);
                continue;
            }
            if (!leases.hold(tenant)) {
                return sent;
            }
            sent++;
            String id = session + "/" + type.substring(type.indexOf('.') + 1);
            Sender.Outcome o = sender.send(sub.get(), id, WebhookEvents.removal(type, tenant, session, c.seq(), now));
            Instant since = c.failingSince() != null ? c.failingSince() : now;
            if (o.delivered()) {
                removed.add(name);
            } else if (now.isBefore(since.plus(settings.retryFor()))) {
                moved.put(name, c.failed(c.attempts() + 1, since, now));
            } else {
                Failure f = new Failure(session, c.seq(), type, c.attempts() + 1, o.error(), now);
                failed.put(WebhookStore.failureName(sub.get().id(), f), f);
                removed.add(name);
            }
        }
        return sent;
    }

    private Set<String> erasedHashes(String tenant) {
        Set<String> out = new HashSet<>();
        List<ErasureReceipt> receipts = records.runtime().lifecycle().receipts(tenant);
        for (ErasureReceipt e : receipts) {
            out.addAll(e.sessionHashes());
        }
        return out;
    }
}
