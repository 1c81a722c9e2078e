package dev.threadline.server.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import java.time.Instant;

/**
 * How far a subscription's delivery got in one session: every event up to {@code seq} is delivered (or
 * failed for good); while the next one fails, {@code attempts} counts its tries, since
 * {@code failingSince}, and {@code nextAttempt} says when to try again. Immutable.
 *
 * @param seq          the last seq delivered or given up
 * @param attempts     failed tries of the event after it (0 when none failed)
 * @param failingSince when its first try failed, or null
 * @param nextAttempt  when to try it again, or null
 * @param expiresAt    when the session expires, as last seen (null: never), to tell an expiry from other removals
 */
record Cursor(long seq, int attempts, Instant failingSince, Instant nextAttempt, Instant expiresAt) {
    static Cursor at(long seq, Instant expiresAt) {
        return new Cursor(seq, 0, null, null, expiresAt);
    }

    /** The same cursor at {@code seq}, keeping its tries. */
    Cursor past(long seq) {
        return new Cursor(seq, attempts, failingSince, nextAttempt, expiresAt);
    }

    /** A failed try of what follows {@code seq}: retried at {@code next}. */
    Cursor failed(int tries, Instant since, Instant next) {
        return new Cursor(seq, tries, since, next, expiresAt);
    }

    static Cursor of(JsonNode v) {
        return new Cursor(v.path("seq").asLong(), v.path("attempts").asInt(0),
                v.hasNonNull("failingSince") ? Instant.parse(v.path("failingSince").asText()) : null,
                v.hasNonNull("nextAttempt") ? Instant.parse(v.path("nextAttempt").asText()) : null,
                v.hasNonNull("expiresAt") ? Instant.parse(v.path("expiresAt").asText()) : null);
    }

    ObjectNode json() {
        ObjectNode o = Json.object().put("seq", seq);
        if (attempts > 0) {
            o.put("attempts", attempts).put("failingSince", failingSince.toString()).put("nextAttempt", nextAttempt.toString());
        }
        if (expiresAt != null) {
            o.put("expiresAt", expiresAt.toString());
        }
        return o;
    }
}
