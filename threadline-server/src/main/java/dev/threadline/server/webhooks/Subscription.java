package dev.threadline.server.webhooks;

import java.net.URI;
import java.time.Instant;
import java.util.Set;

/**
 * A tenant's webhook subscription: where to deliver which event types, signed with which secret.
 * Immutable.
 *
 * @param id        its id ({@code wh_...})
 * @param tenant    the tenant whose sessions' events it hears
 * @param url       the receiver ({@code http} or {@code https})
 * @param events    the event types delivered (see {@link WebhookEvents#TYPES})
 * @param secret    the {@code whsec_} signing secret (kept in the store: the server signs with it)
 * @param createdAt when it was added: events recorded before then are not delivered
 */
public record Subscription(String id, String tenant, URI url, Set<String> events, String secret, Instant createdAt) {
    /** @throws NullPointerException when a field is missing */
    public Subscription {
        java.util.Objects.requireNonNull(id, "id");
        java.util.Objects.requireNonNull(tenant, "tenant");
        java.util.Objects.requireNonNull(url, "url");
        events = Set.copyOf(events);
        java.util.Objects.requireNonNull(secret, "secret");
        java.util.Objects.requireNonNull(createdAt, "createdAt");
    }

    /** Whether this subscription wants events of {@code type}. */
    public boolean wants(String type) {
        return events.contains(type);
    }
}
