package dev.threadline.core.store;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The store's role as a followable journal: waiting for a session's head to move past a seq, so an
 * observer in any process can follow a session live. The default polls {@link Journal#head} with a
 * backoff from 2 ms to 100 ms; a backend that can push (a notification channel) overrides it.
 * Thread-safe.
 */
public interface JournalTail extends Journal {

    /**
     * Returns the session's head as soon as it is past {@code afterSeq}, or when {@code timeout} has
     * passed (then the head may still be {@code afterSeq}).
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     * @throws InterruptedException                        when the waiting thread is interrupted
     */
    default long awaitHead(SessionKey key, long afterSeq, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 2_000_000L;
        while (true) {
            long head = head(key);
            long left = deadline - System.nanoTime();
            if (head > afterSeq || left <= 0) {
                return head;
            }
            LockSupport.parkNanos(Math.min(pause, left));
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for session '" + key.id() + "' to move past seq " + afterSeq);
            }
            pause = Math.min(pause * 2, 100_000_000L);
        }
    }
}
