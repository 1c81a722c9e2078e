package dev.threadline.store.redis;

import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.ListingCursor;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Paged listing of a tenant's sessions. The order comes from the tenant's index (a sorted set, score
 * minus the update millisecond, ties by id); each page's rows come from the sessions themselves (their
 * meta hashes, fetched in one pipelined round per chunk), so the head and update time shown are always
 * the session's own. The user and metadata filters are applied while paging, chunk by chunk, until the
 * page is full. Index entries whose session is gone (a delete that died before its index update) or not
 * yet complete are skipped; a session whose index entry is stale (an append that died before its index
 * update) is listed at its old place with its true head. Stateless.
 */
final class Listing {
    private static final int CHUNK = 128;

    private Listing() {}

    static Page<SessionSummary> list(Connection redis, Keys keys, SessionQuery query, long timeoutMillis) {
        String tag = StoreChecks.queryTag(query);
        ListingCursor after = query.cursor() == null ? null : ListingCursor.parse(query.cursor(), tag);
        String index = keys.index(query.tenant());
        Range<Double> range = after == null ? Range.unbounded() : Range.create((double) after.position(), Double.POSITIVE_INFINITY);
        List<Row> out = new ArrayList<>();
        long offset = 0;
        while (out.size() <= query.limit()) {
            List<ScoredValue<String>> chunk = redis.sync.zrangebyscoreWithScores(index, range, Limit.create(offset, CHUNK));
            if (chunk.isEmpty()) {
                break;
            }
            offset += chunk.size();
            List<ScoredValue<String>> fresh = new ArrayList<>();
            for (ScoredValue<String> v : chunk) {
                if (after == null || v.getScore() != (double) after.position() || v.getValue().compareTo(after.id()) > 0) {
                    fresh.add(v);
                }
            }
            List<RedisFuture<List<io.lettuce.core.KeyValue<String, String>>>> metas = new ArrayList<>();
            for (ScoredValue<String> v : fresh) {
                metas.add(redis.async.hmget(keys.session(new SessionKey(query.tenant(), v.getValue()))[0], "info", "head", "upd", "pend"));
            }
            for (int i = 0; i < fresh.size() && out.size() <= query.limit(); i++) {
                List<io.lettuce.core.KeyValue<String, String>> m = await(metas.get(i), timeoutMillis);
                if (!m.get(0).hasValue() || m.get(3).hasValue()) {
                    continue; // gone, or a branch whose create has not completed
                }
                String id = fresh.get(i).getValue();
                SessionInfo info = RecordCodec.decodeSession(id, m.get(0).getValue());
                if (query.userId() != null && !info.userId().equals(query.userId())) {
                    continue;
                }
                if (!info.metadata().entrySet().containsAll(query.metadata().entrySet())) {
                    continue;
                }
                out.add(new Row(new SessionSummary(info, Long.parseLong(m.get(1).getValue()), Instant.parse(m.get(2).getValue())),
                        fresh.get(i).getScore()));
            }
            if (chunk.size() < CHUNK) {
                break;
            }
        }
        List<Row> page = out.subList(0, Math.min(out.size(), query.limit()));
        String next = out.size() > query.limit()
                ? new ListingCursor((long) page.get(page.size() - 1).score(), page.get(page.size() - 1).summary().info().id()).format(tag) : null;
        return new Page<>(page.stream().map(Row::summary).toList(), next);
    }

    /**
     * Removes the index entries of sessions that are gone (expired by their TTL, or deleted by a writer
     * that died before its index update), each only if its score is unchanged; returns how many.
     */
    static int prune(Connection redis, Keys keys, String tenant, long timeoutMillis) {
        String index = keys.index(tenant);
        int removed = 0;
        long offset = 0;
        while (true) {
            List<ScoredValue<String>> chunk = redis.sync.zrangeWithScores(index, offset, offset + CHUNK - 1);
            List<RedisFuture<Long>> exists = new ArrayList<>();
            for (ScoredValue<String> v : chunk) {
                exists.add(redis.async.exists(keys.session(new SessionKey(tenant, v.getValue()))[Keys.META]));
            }
            int kept = 0;
            for (int i = 0; i < chunk.size(); i++) {
                if (await(exists.get(i), timeoutMillis) == 0) {
                    Scripts.UNINDEX.run(redis.sync, new String[] {index}, chunk.get(i).getValue(),
                            Long.toString((long) chunk.get(i).getScore()));
                    removed++;
                } else {
                    kept++;
                }
            }
            if (chunk.size() < CHUNK) {
                return removed;
            }
            offset += kept;
        }
    }

    static <T> T await(RedisFuture<T> f, long timeoutMillis) {
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.lettuce.core.RedisCommandInterruptedException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new io.lettuce.core.RedisException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new io.lettuce.core.RedisCommandTimeoutException("listing timed out");
        }
    }

    private record Row(SessionSummary summary, double score) {
    }
}
