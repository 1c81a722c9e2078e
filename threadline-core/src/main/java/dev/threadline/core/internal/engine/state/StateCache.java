package dev.threadline.core.internal.engine.state;

import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bounded set of sessions held in memory, least recently used first out. An evicted session is
 * reloaded from its newest snapshot and the journal tail when next used. Thread-safe.
 */
public final class StateCache {
    private final int capacity;
    private final LinkedHashMap<SessionKey, State> map;

    public StateCache(int capacity) {
        this.capacity = capacity;
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<SessionKey, State> eldest) {
                return size() > StateCache.this.capacity;
            }
        };
    }

    public synchronized State get(SessionKey key) {
        return map.get(key);
    }

    public synchronized void put(SessionKey key, State state) {
        map.put(key, state);
    }

    /** Caches a state a reader caught up to, unless a writer already cached a newer one. */
    public synchronized void putIfNewer(SessionKey key, State state) {
        State old = map.get(key);
        if (old == null || old.seq() <= state.seq()) {
            map.put(key, state);
        }
    }

    public synchronized void remove(SessionKey key) {
        map.remove(key);
    }

    public synchronized int size() {
        return map.size();
    }
}
