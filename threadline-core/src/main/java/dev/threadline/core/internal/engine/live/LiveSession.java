package dev.threadline.core.internal.engine.live;

import dev.threadline.core.store.SessionKey;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Everything this runtime has live for one session, in one place: its mailbox of commands, the lock
 * its writes take, the lease this runtime holds on it, the turn running here, and the committed steps
 * its listeners have still to hear. An entry exists in the {@link LiveRegistry} only while one of those
 * needs it: each facet that becomes active pins the entry, and unpins it when it goes quiet, so an idle
 * session costs nothing here. Thread-safe: each facet guards itself; {@link #pins} is changed only inside
 * the registry map's compute.
 */
public final class LiveSession {
    private final SessionKey key;
    /** How many facets (or callers between two steps of theirs) hold the entry in the registry. */
    int pins;
    final Mailbox mailbox = new Mailbox();
    final ReentrantLock writeLock = new ReentrantLock();
    final LeaseSlot lease = new LeaseSlot();
    final Deliveries deliveries = new Deliveries();
    private volatile TurnControl turn;

    LiveSession(SessionKey key) {
        this.key = key;
    }

    /** The session. */
    public SessionKey key() {
        return key;
    }

    /** The lock a write to the session takes (decide, append, apply, publish), so parallel tool results queue up. */
    public ReentrantLock writeLock() {
        return writeLock;
    }

    /** The turn this runtime runs for the session now, or null. */
    public TurnControl turn() {
        return turn;
    }

    /** Sets the running turn; false when one runs already. Called by the registry. */
    boolean startTurn(TurnControl control) {
        synchronized (this) {
            if (turn != null) {
                return false;
            }
            turn = control;
            return true;
        }
    }

    /** Clears the running turn if it is {@code control}. Called by the registry. */
    boolean endTurn(TurnControl control) {
        synchronized (this) {
            if (turn != control) {
                return false;
            }
            turn = null;
            return true;
        }
    }

    @Override
    public String toString() {
        return "LiveSession[" + key + ", pins=" + pins + "]";
    }
}
