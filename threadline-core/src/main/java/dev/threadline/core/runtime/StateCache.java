package dev.threadline.core.runtime;

import dev.threadline.core.state.State;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bounded set of sessions held in memory, least recently used first out. An evicted session is
 * reloaded from its newest snapshot and the journal tail when next used.
 */
final class StateCache {
    private final int capacity;
    private final LinkedHashMap<String, State> map;

    StateCache(int capacity) {
        this.capacity = capacity;
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, State> eldest) {
                return size() > StateCache.this.capacity;
            }
        };
    }

    synchronized State get(String sessionId) {
        return map.get(sessionId);
    }

    synchronized void put(String sessionId, State state) {
        map.put(sessionId, state);
    }

    synchronized void remove(String sessionId) {
        map.remove(sessionId);
    }

    synchronized int size() {
        return map.size();
    }
}
