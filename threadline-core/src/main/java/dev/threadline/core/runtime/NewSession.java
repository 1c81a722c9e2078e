package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import dev.threadline.core.session.SessionConfig;
import java.time.Duration;
import java.util.Map;

/**
 * What a new session is made of. Immutable.
 *
 * @param id       the session's id within the tenant, or null to generate one
 * @param userId   the user it belongs to, or null for the runtime's default user
 * @param config   how it runs
 * @param metadata free-form string pairs to find it by
 * @param ttl      how long until retention may remove it; null for the tenant's default
 *                 ({@code Threadline.Builder#sessionTtl}, never unless one is set), {@link #FOREVER} for never
 */
public record NewSession(String id, String userId, SessionConfig config, Map<String, String> metadata, Duration ttl) {
    /** A ttl that never ends, whatever the tenant's default: the session is kept until it is deleted. */
    public static final Duration FOREVER = java.time.temporal.ChronoUnit.FOREVER.getDuration();

    /** @throws dev.threadline.core.error.InvalidInputException when the config is missing or the ttl not positive */
    public NewSession {
        Require.nonNull(config, "config");
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        if (ttl != null) {
            Require.argument(!ttl.isNegative() && !ttl.isZero(), "ttl", "must be positive, was " + ttl);
        }
    }

    /** A session with this id and config, the default user, no metadata and the tenant's default ttl. */
    public static NewSession of(String id, SessionConfig config) {
        return new NewSession(id, null, config, Map.of(), null);
    }
}
