package dev.threadline.store.redis;

import dev.threadline.core.log.Logs;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionKey;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * The sessions that expire, by when: one sorted set per deployment ({@link Keys#expiry()}), scored by
 * the expiry in epoch milliseconds rounded up (so a session is never listed before it expires), whose
 * members are {@code tenant + " " + id} (a space sorts before every character of an id, so ties go by
 * tenant, then id). A create adds its session after its script, a delete removes it. Redis never removes
 * a session's keys by itself (retention does, after taking the lease); {@link #expired} drops the entries
 * of sessions whose keys are gone anyway, from this set and from their tenant's index, and does not list
 * them. Stateless.
 */
final class Expiry {
    private static final Logger LOG = Logs.get(RedisStateStore.class);

    private Expiry() {}

    static String member(SessionKey key) {
        return key.tenant() + " " + key.id();
    }

    /** Records when the session expires, if it does; a failure is logged (the session is then kept past its expiry). */
    static void add(Connection redis, Keys keys, SessionInfo info) {
        if (info.expiresAt() == null) {
            return;
        }
        Instant at = info.expiresAt();
        long score = at.toEpochMilli() + (at.getNano() % 1_000_000 == 0 ? 0 : 1);
        try {
            redis.sync.zadd(keys.expiry(), score, member(SessionKey.of(info)));
        } catch (RuntimeException e) {
            LOG.warn("redis store: session '{}' is stored but not in the expiry index ({}); retention will not"
                    + " remove it at its expiry", info.id(), Failures.cause(e));
        }
    }

    static void remove(Connection redis, Keys keys, SessionKey key) {
        redis.sync.zrem(keys.expiry(), member(key));
    }

    /**
     * Up to {@code limit} sessions expired at {@code now}, oldest first: one range read of the set, then
     * one pipelined existence check of the sessions it names. Entries of sessions whose keys are gone are
     * removed (from the set and their tenant's index) and not listed, so a pass may list fewer.
     */
    static List<SessionKey> expired(Connection redis, Keys keys, Instant now, int limit, long timeoutMillis) {
        List<String> members = redis.sync.zrangebyscore(keys.expiry(), Range.create(Double.NEGATIVE_INFINITY,
                (double) now.toEpochMilli()), Limit.create(0, limit));
        List<SessionKey> candidates = new ArrayList<>();
        List<RedisFuture<Long>> exists = new ArrayList<>();
        for (String m : members) {
            int space = m.indexOf(' ');
            SessionKey key = new SessionKey(m.substring(0, space), m.substring(space + 1));
            candidates.add(key);
            exists.add(redis.async.exists(keys.session(key)[Keys.META]));
        }
        List<SessionKey> out = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            SessionKey key = candidates.get(i);
            if (Listing.await(exists.get(i), timeoutMillis) == 1) {
                out.add(key);
            } else {
                redis.sync.zrem(keys.expiry(), member(key));
                redis.sync.zrem(keys.index(key.tenant()), key.id());
            }
        }
        return out;
    }
}
