package dev.threadline.core.store;

import dev.threadline.core.error.InvalidInputException;
import java.util.List;

/**
 * The store's role of keeping the tenants' data keys of encryption at rest, only ever wrapped (ADR 0049): the
 * store and its backups are unreadable without the key provider that holds the key-encryption keys. Numbers
 * are per tenant, from 1, never reused; a key once added never changes, only its wrapping may
 * ({@link #rewrapDataKey}: the same key wrapped under another key-encryption key). A backend that keeps them says so
 * with {@link #keepsDataKeys()}; the defaults refuse, naming the backend. Implementations are thread-safe and
 * safe across processes: of two processes adding the same number, exactly one wins.
 */
public interface DataKeys {

    /** Whether this backend keeps data keys (and so can be encrypted); when false the other methods refuse. */
    default boolean keepsDataKeys() {
        return false;
    }

    /**
     * The tenant's data keys by ascending number, empty when it has none yet. A read: changes nothing.
     *
     * @throws InvalidInputException when the backend keeps no data keys
     * @throws dev.threadline.core.error.StorageException when the store cannot be read
     */
    default List<WrappedDataKey> dataKeys(String tenant) {
        throw refusal();
    }

    /**
     * Adds {@code key} when its number is still free for its tenant.
     *
     * @return true when it was added; false when the tenant already has a key of that number (another process
     *         added it first; that one stays, unchanged)
     * @throws InvalidInputException when the backend keeps no data keys
     * @throws dev.threadline.core.error.StorageException when the store cannot be written
     */
    default boolean addDataKey(WrappedDataKey key) {
        throw refusal();
    }

    /**
     * Replaces {@code current} with {@code rewrapped} (the same tenant, number and key, wrapped under another
     * key-encryption key) when the store still holds {@code current} exactly as given.
     *
     * @return true when it was replaced; false when the key's wrapping changed meanwhile (another process wrapped it
     *         again first) or the store holds no such key
     * @throws InvalidInputException when the backend keeps no data keys, or the two name different tenants or numbers
     * @throws dev.threadline.core.error.StorageException when the store cannot be written
     */
    default boolean rewrapDataKey(WrappedDataKey current, WrappedDataKey rewrapped) {
        throw refusal();
    }

    /**
     * Checks that {@code rewrapped} is {@code current} wrapped again: the same tenant and number. For implementations.
     *
     * @throws InvalidInputException naming both when they differ
     */
    static void sameKey(WrappedDataKey current, WrappedDataKey rewrapped) {
        if (!current.tenant().equals(rewrapped.tenant()) || current.number() != rewrapped.number()) {
            throw new InvalidInputException("rewrapped", "a data key wrapped again keeps its tenant and number: "
                    + current.tenant() + "/" + current.number() + " is not " + rewrapped.tenant() + "/" + rewrapped.number());
        }
    }

    private InvalidInputException refusal() {
        return new InvalidInputException("store", "this " + getClass().getSimpleName() + " keeps no data keys, so it cannot be"
                + " encrypted; memory:, sqlite:, postgresql: and redis: stores can (nothing was changed)");
    }
}
