package dev.threadline.chatmemory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Per session, the last view an adapter built of it, so that the next one is built from it in time proportional
 * to what changed rather than to the history (see {@code docs/adr/0043-adapters-reuse-their-last-view.md}). A
 * view is a pure function of one immutable state, and an adapter reuses a cached view's parts only where it
 * proves, by object identity, that the state's messages and the list a framework hands back are those it was
 * built from; so a stale, missing or evicted entry costs time, never correctness. Holds at most
 * {@code capacity} sessions, the least recently used leaving first. Thread-safe.
 *
 * @param <V> the adapter's view type
 */
public final class ViewCache<V> {
    private final Map<String, V> views;

    /**
     * A cache of at most {@code capacity} sessions' views.
     *
     * @throws IllegalArgumentException when {@code capacity} is less than 1
     */
    public ViewCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a view cache's capacity must be at least 1, was " + capacity);
        }
        this.views = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * The last view of the session, or null.
     *
     * @throws NullPointerException when the session id is null
     */
    public synchronized V get(String session) {
        return views.get(Objects.requireNonNull(session, "session"));
    }

    /**
     * Keeps {@code view} as the session's last view.
     *
     * @throws NullPointerException when an argument is null
     */
    public synchronized void put(String session, V view) {
        views.put(Objects.requireNonNull(session, "session"), Objects.requireNonNull(view, "view"));
    }

    /**
     * Forgets the session's view (after the session was deleted).
     *
     * @throws NullPointerException when the session id is null
     */
    public synchronized void remove(String session) {
        views.remove(Objects.requireNonNull(session, "session"));
    }

    /**
     * Whether {@code a} and {@code b} hold the very same objects (identity, not equality) at every index in
     * {@code [from, to)}; false when either is shorter than {@code to}. The check a reuse rests on: equal-looking
     * objects prove nothing about what was derived from them, the same objects do. Costs a reference comparison
     * per index.
     *
     * @throws NullPointerException when a list is null
     */
    public static boolean sameObjects(List<?> a, List<?> b, int from, int to) {
        if (a.size() < to || b.size() < to) {
            return false;
        }
        if (a == b) {
            return true;
        }
        for (int i = from; i < to; i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }
}
