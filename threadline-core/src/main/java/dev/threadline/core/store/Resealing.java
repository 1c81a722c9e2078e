package dev.threadline.core.store;

import dev.threadline.core.error.InvalidInputException;
import java.util.function.Consumer;

/**
 * The store's role of turning its keys of encryption at rest over (ADR 0049): a new data key for a tenant, its data
 * keys wrapped again under the key provider's active key-encryption key, and its stored payloads sealed again under
 * its newest data key, batch by batch while the store is in use ({@code threadline keys rotate-data}). A store opened
 * with keys says so with {@link #seals()}; the defaults refuse, naming what is missing. Implementations are
 * thread-safe and safe beside other processes writing the same store: each batch is a unit of work of its own, and a
 * payload changed meanwhile is left as the other writer left it.
 */
public interface Resealing {

    /** Whether this store seals what it writes (it was opened with a key provider). */
    default boolean seals() {
        return false;
    }

    /**
     * Starts a new data key for {@code tenant}, wrapped under the provider's active key-encryption key: this process
     * seals under it from now on, other processes once they next look at the tenant's keys (within a minute); what
     * was sealed before keeps opening under its own key. Returns the new key's number.
     *
     * @throws InvalidInputException when the store is not opened with keys
     * @throws dev.threadline.core.error.KeyUnavailableException when the tenant has no key-encryption key
     */
    default int rotateDataKey(String tenant) {
        throw notSealing("rotate a data key");
    }

    /**
     * Wraps every data key of {@code tenant} that is wrapped under another key-encryption key than the provider's
     * active one again under the active one (the key itself, and so every payload, unchanged): after it, the older
     * key-encryption keys can be retired from the provider. Returns how many were wrapped again.
     *
     * @throws InvalidInputException when the store is not opened with keys
     * @throws dev.threadline.core.error.KeyUnavailableException when a data key's key-encryption key is missing or wrong
     */
    default int rewrapDataKeys(String tenant) {
        throw notSealing("wrap data keys again");
    }

    /**
     * Seals every stored payload of {@code tenant} that is not sealed under its newest data key again under that key
     * (plain payloads written before the store was opened with keys included), {@code batch} payloads per unit of
     * work, calling {@code progress} after each batch. Returns the totals. Older data keys stay (a backup may still
     * need them); nothing is read by a reader in a changed form.
     *
     * @throws InvalidInputException when the store is not opened with keys, or {@code batch} is below 1
     * @throws dev.threadline.core.error.KeyUnavailableException when a payload's data key cannot be unwrapped
     */
    default Resealed reseal(String tenant, int batch, Consumer<Resealed> progress) {
        throw notSealing("re-seal payloads");
    }

    /**
     * How far a re-seal has come.
     *
     * @param tenant   whose payloads
     * @param dataKey  the data key they are sealed under now (the tenant's newest)
     * @param examined stored payloads looked at so far
     * @param resealed of those, sealed again (the others were under the newest key already, or changed meanwhile)
     */
    record Resealed(String tenant, int dataKey, long examined, long resealed) {
    }

    private InvalidInputException notSealing(String what) {
        return new InvalidInputException("store", "cannot " + what + ": this " + getClass().getSimpleName() + " is not opened"
                + " with keys (encryption at rest); open it with ?keys=keyring:FILE or ?keys=env (nothing was changed)");
    }
}
