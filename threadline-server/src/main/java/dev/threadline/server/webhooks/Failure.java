package dev.threadline.server.webhooks;

import java.time.Instant;

/**
 * A delivery that failed for good: retried with backoff for the whole retry period, then given up and
 * kept here to be seen ({@code GET /v1/webhooks/{id}}). Immutable.
 *
 * @param session   the session whose event it was
 * @param seq       the event's seq
 * @param type      the webhook type
 * @param attempts  how many times it was sent
 * @param lastError what the last attempt got (a status or an I/O error)
 * @param failedAt  when it was given up
 */
public record Failure(String session, long seq, String type, int attempts, String lastError, Instant failedAt) {
}
