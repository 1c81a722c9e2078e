package dev.threadline.server.webhooks;

import java.time.Duration;

/**
 * How webhooks are delivered. Immutable.
 *
 * @param pollEvery    how often a node looks for new events of tenants with subscriptions (it is also
 *                     woken at once by its own commits; the poll finds other nodes' and restarts' work)
 * @param leaseTtl     how long a tenant's delivery lease lasts unless renewed
 * @param timeout      the connect and the request timeout of one attempt
 * @param firstBackoff the wait before the first retry; each retry doubles it
 * @param maxBackoff   the longest wait between retries
 * @param retryFor     how long a delivery is retried before it is given up and recorded as failed
 */
public record WebhookSettings(Duration pollEvery, Duration leaseTtl, Duration timeout, Duration firstBackoff, Duration maxBackoff,
                              Duration retryFor) {
    /** Poll every 2 s, a 30 s lease, 10 s timeouts, retries from 5 s doubling up to 1 h, for a day. */
    public static final WebhookSettings DEFAULTS = new WebhookSettings(Duration.ofSeconds(2), Duration.ofSeconds(30),
            Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofHours(1), Duration.ofDays(1));

    /** @throws IllegalArgumentException when a duration is missing or not positive */
    public WebhookSettings {
        for (Duration d : new Duration[] {pollEvery, leaseTtl, timeout, firstBackoff, maxBackoff, retryFor}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("webhook settings: every duration must be positive");
            }
        }
    }

    /** The wait before try {@code tries + 1}: {@code firstBackoff * 2^(tries-1)}, at most {@code maxBackoff}. */
    public Duration backoff(int tries) {
        Duration d = firstBackoff;
        for (int i = 1; i < tries && d.compareTo(maxBackoff) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
    }
}
