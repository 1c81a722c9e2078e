package dev.threadline.store.redis;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.ThreadlineException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;

/** Turns Lettuce's failures into one-line {@link StorageException}s that say what was being done. Stateless. */
final class Failures {
    private Failures() {}

    /** The innermost useful message of {@code e}, on one line. */
    static String cause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        if (t != e && e.getMessage() != null && !(e instanceof RedisConnectionException)) {
            m = e.getMessage();
        }
        return EventEntry.firstLine(m);
    }

    /** A failure of Redis while doing {@code what}, as a StorageException (Threadline's own exceptions pass through). */
    static RuntimeException wrap(String url, String what, RuntimeException e) {
        if (e instanceof ThreadlineException) {
            return e;
        }
        if (e instanceof Acks.Shortfall) {
            return new StorageException("redis store " + url + ": " + what + ": " + e.getMessage(), e);
        }
        if (e instanceof RedisCommandTimeoutException) {
            return new StorageException("redis store " + url + " unavailable: " + what + " timed out (" + cause(e) + ")", e);
        }
        if (e instanceof RedisConnectionException || (e instanceof RedisException && (isDisconnect(e) || isNotServing(e)))) {
            return new StorageException("redis store " + url + " unavailable: cannot " + what + " (" + cause(e) + ")", e);
        }
        if (e instanceof RedisException) {
            return new StorageException("redis store " + url + ": cannot " + what + " (" + cause(e) + ")", e);
        }
        return e;
    }

    /**
     * A server that is up but cannot serve the command for now, as during a failover: a cluster without a
     * master for some slots ({@code CLUSTERDOWN}), a replica cut off from its master ({@code MASTERDOWN}),
     * loading its data ({@code LOADING}), a slot moving ({@code TRYAGAIN}), or a master turned replica
     * ({@code READONLY}, or, after a write it took, a {@code WAIT} refused because it turned replica meanwhile: the
     * write was never acknowledged and may be lost with the failover). Like a lost connection, the store is
     * unavailable and a later retry may succeed.
     */
    static boolean isNotServing(RuntimeException e) {
        String m = e.getMessage();
        return m != null && (m.startsWith("CLUSTERDOWN") || m.startsWith("MASTERDOWN") || m.startsWith("LOADING")
                || m.startsWith("TRYAGAIN") || m.startsWith("READONLY") || m.startsWith("ERR WAIT cannot be used with replica"));
    }

    /** A lost connection: an I/O error under Lettuce's exception, or Lettuce saying it is not connected. */
    private static boolean isDisconnect(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.io.IOException) {
                return true;
            }
            String m = t.getMessage();
            if (m != null && (m.contains("not connected") || m.contains("Connection closed") || m.contains("disconnected"))) {
                return true;
            }
        }
        return false;
    }
}
