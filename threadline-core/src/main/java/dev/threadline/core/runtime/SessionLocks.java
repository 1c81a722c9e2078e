package dev.threadline.core.runtime;

import dev.threadline.core.store.SessionKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One lock per session, held only while some thread holds or waits for it: sessions never share a
 * lock (a fixed set of striped locks made unrelated sessions wait for each other's store writes:
 * with 256 stripes, 256 busy sessions left about 40 % of their threads waiting on another session's
 * step), and the map holds only the sessions in use. Thread-safe.
 */
final class SessionLocks {
    /** A lock and how many threads hold or wait for it (changed only inside the map's compute). */
    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock();
        int users;
    }

    private final ConcurrentHashMap<SessionKey, Entry> entries = new ConcurrentHashMap<>();

    /** Locks {@code key}'s lock, waiting for it; pair with {@link #unlock}. */
    void lock(SessionKey key) {
        Entry e = entries.compute(key, (k, old) -> {
            Entry out = old == null ? new Entry() : old;
            out.users++;
            return out;
        });
        try {
            e.lock.lock();
        } catch (RuntimeException | Error t) {
            release(key);
            throw t;
        }
    }

    /** Unlocks {@code key}'s lock, held by this thread. */
    void unlock(SessionKey key) {
        Entry e = entries.get(key);
        if (e == null || !e.lock.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("session " + key + " is not locked by this thread");
        }
        e.lock.unlock();
        release(key);
    }

    private void release(SessionKey key) {
        entries.computeIfPresent(key, (k, e) -> --e.users == 0 ? null : e);
    }

    /** How many sessions have a lock now (held or waited for), for tests. */
    int size() {
        return entries.size();
    }
}
