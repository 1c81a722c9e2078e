package dev.threadline.core.internal.engine.live;

import dev.threadline.core.store.SessionKey;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The epoch of the lease a runtime last released, per session, until it enters the session again:
 * bounded, least recently used out (a session forgotten here is re-taken as a take-over, the safe side).
 * It outlives the session's live entry on purpose: it is what tells a later acquisition whether anyone
 * else held the session in between. Thread-safe.
 */
final class ReleasedEpochs {
    /** How many sessions' released epochs are remembered (about a megabyte at most). */
    static final int CAPACITY = 10_000;

    /** A lease this runtime released: its epoch, and until when this runtime leaves it to others (null: no yield). */
    record Released(long epoch, Instant yieldUntil) {}

    private final LinkedHashMap<SessionKey, Released> map;

    ReleasedEpochs(int capacity) {
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<SessionKey, Released> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized void put(SessionKey key, Released r) {
        map.put(key, r);
    }

    /** The lease released for {@code key}, now forgotten, or null. */
    synchronized Released take(SessionKey key) {
        return map.remove(key);
    }
}
