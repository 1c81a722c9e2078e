package dev.threadline.core.crypto;

import java.util.List;

/**
 * Where a store keeps the tenants' data keys, wrapped (ADR 0049): never a key in clear, so the store and its
 * backups are unreadable without the key provider. Numbers are per tenant, from 1, never reused; a key is
 * added once and never changed but by re-wrapping (same number, same key, another KEK). Implementations are
 * thread-safe and safe across processes (an add is atomic: of two processes adding the same number, one wins).
 */
public interface DataKeys {
    /**
     * A data key as stored.
     *
     * @param tenant  whose key it is
     * @param number  its number, named in every payload sealed under it
     * @param kekId   the key-encryption key it is wrapped under
     * @param wrapped the key, wrapped
     */
    record Wrapped(String tenant, int number, String kekId, byte[] wrapped) {
    }

    /** The tenant's data keys, by ascending number (empty when it has none yet). */
    List<Wrapped> keys(String tenant);

    /** Adds a key when its number is free; false when another process added that number first. */
    boolean add(Wrapped key);
}
