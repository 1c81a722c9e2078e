package dev.threadline.core.crypto;

import dev.threadline.core.error.KeyUnavailableException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.WrappedDataKey;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Seals and opens the payloads a store keeps (ADR 0049): {@code 0xF1 || data key number (4 bytes) || nonce ||
 * ciphertext || tag}, 33 bytes more than the plaintext, under the tenant's newest data key. Data keys are
 * made on first use, wrapped by the provider's active key-encryption key and kept in the store's {@link DataKeys}; each
 * is unwrapped once per process and cached. For store implementations: a store opened with a key provider
 * seals every payload it writes with one of these and opens every payload it reads. A stored JSON payload never starts with {@code 0xF1}, so sealed
 * and plain payloads can sit side by side while a store is being sealed. Thread-safe.
 */
public final class PayloadSealer {
    /** The first byte of every sealed payload. */
    public static final byte MARK = (byte) 0xF1;
    /** Bytes a sealed payload has beyond its plaintext. */
    public static final int OVERHEAD = 1 + 4 + Aead.NONCE_BYTES + Aead.TAG_BYTES;

    /** How long a process seals under the newest data key it knows before it looks for a newer one: {@value} ms. */
    public static final long REFRESH_MILLIS = 60_000;

    private record Key(int number, byte[] bytes, long loadedAt) {
    }

    private final KeyProvider provider;
    private final DataKeys store;
    private final Clock clock;
    private final Map<String, Key> newest = new ConcurrentHashMap<>();
    private final Map<String, byte[]> opened = new ConcurrentHashMap<>();

    /** A sealer of payloads under data keys kept in {@code store}, wrapped by {@code provider}'s keys. */
    public PayloadSealer(KeyProvider provider, DataKeys store) {
        this(provider, store, Clock.systemUTC());
    }

    /**
     * A sealer of payloads under data keys kept in {@code store}, wrapped by {@code provider}'s keys, that looks for a
     * tenant's newer data key (another process rotated it) in {@link #ready} once {@link #REFRESH_MILLIS} have passed on
     * {@code clock}.
     */
    public PayloadSealer(KeyProvider provider, DataKeys store, Clock clock) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** True when {@code stored} is a sealed payload (not a plain one). */
    public static boolean isSealed(byte[] stored) {
        return stored.length > 0 && stored[0] == MARK;
    }

    /**
     * Makes sure {@code tenant} can be sealed for, and returns the number of the data key it is sealed under: the
     * newest the store holds (made now when there is none), unwrapped and cached; looked up again when the cached one
     * is older than {@link #REFRESH_MILLIS}, so a rotation by another process is picked up. A store calls it on the
     * caller's thread before a write, so that {@link #seal} inside the write never reads or adds a data key.
     *
     * @throws KeyUnavailableException when the tenant has no key-encryption key, or its data key does not unwrap
     */
    public int ready(String tenant) {
        Key k = newest.get(tenant);
        if (k == null || clock.millis() - k.loadedAt() >= REFRESH_MILLIS) {
            Key found = newestOrFirst(tenant);
            k = newest.merge(tenant, found, (had, now) -> now.number() >= had.number() ? now : had);
        }
        return k.number();
    }

    /**
     * Seals {@code plain} for {@code tenant}, bound to {@code place} (the payload's tenant, session, seq and kind:
     * moved to another place it no longer opens).
     *
     * @throws KeyUnavailableException when the tenant has no key-encryption key; nothing is sealed
     */
    public byte[] seal(String tenant, byte[] plain, byte[] place) {
        Key k = newest.computeIfAbsent(tenant, this::newestOrFirst);
        byte[] out = Aead.seal(k.bytes(), plain, place, 5);
        out[0] = MARK;
        out[1] = (byte) (k.number() >>> 24);
        out[2] = (byte) (k.number() >>> 16);
        out[3] = (byte) (k.number() >>> 8);
        out[4] = (byte) k.number();
        return out;
    }

    /**
     * Opens a payload {@link #seal} made for {@code tenant} at {@code place}.
     *
     * @throws KeyUnavailableException when its data key's key-encryption key is missing or wrong
     * @throws StorageException        when it does not open under its data key (damaged, or not from this place)
     */
    public byte[] open(String tenant, byte[] sealed, byte[] place) {
        if (!isSealed(sealed) || sealed.length < OVERHEAD) {
            throw new StorageException("a payload of tenant '" + tenant + "' is not a sealed payload (" + sealed.length + " bytes)");
        }
        int number = keyNumber(sealed);
        byte[] key = opened.computeIfAbsent(tenant + "\u0000" + number, x -> unwrap(tenant, number));
        byte[] plain = Aead.open(key, sealed, place, 5);
        if (plain == null) {
            throw new StorageException("a sealed payload of tenant '" + tenant + "' does not open under its data key " + number
                    + ": it is damaged, or was copied from another place");
        }
        return plain;
    }

    /**
     * Starts a new data key for {@code tenant}, wrapped under the provider's active key-encryption key: new
     * payloads are sealed under it, older ones keep opening under theirs. Returns its number.
     */
    public int rotate(String tenant) {
        Key k = add(tenant, store.dataKeys(tenant));
        newest.put(tenant, k);
        return k.number();
    }

    /**
     * Wraps every data key of {@code tenant} not wrapped under the provider's active key-encryption key again under
     * it; the keys themselves do not change, so every payload keeps opening. Returns how many were wrapped again (a key
     * another process wrapped again first is not counted).
     *
     * @throws KeyUnavailableException when a data key does not unwrap under the key it names
     */
    public int rewrap(String tenant) {
        String active = provider.activeKeyId(tenant);
        int done = 0;
        for (WrappedDataKey w : store.dataKeys(tenant)) {
            if (!w.kekId().equals(active)) {
                byte[] key = provider.unwrap(tenant, w.kekId(), w.wrapped());
                if (store.rewrapDataKey(w, new WrappedDataKey(tenant, w.number(), active, provider.wrap(tenant, active, key)))) {
                    done++;
                }
            }
        }
        return done;
    }

    /** The number of the data key {@code sealed} names (it must be sealed: {@link #isSealed}). */
    public static int keyNumber(byte[] sealed) {
        if (!isSealed(sealed) || sealed.length < 5) {
            throw new IllegalArgumentException("not a sealed payload");
        }
        return ((sealed[1] & 0xFF) << 24) | ((sealed[2] & 0xFF) << 16) | ((sealed[3] & 0xFF) << 8) | (sealed[4] & 0xFF);
    }

    /** The first five bytes of every payload sealed under data key {@code number}: the mark and the number. */
    public static byte[] prefix(int number) {
        return new byte[] {MARK, (byte) (number >>> 24), (byte) (number >>> 16), (byte) (number >>> 8), (byte) number};
    }

    private Key newestOrFirst(String tenant) {
        List<WrappedDataKey> keys = store.dataKeys(tenant);
        if (keys.isEmpty()) {
            return add(tenant, keys);
        }
        WrappedDataKey w = keys.get(keys.size() - 1);
        return new Key(w.number(), opened.computeIfAbsent(tenant + "\u0000" + w.number(),
                x -> provider.unwrap(tenant, w.kekId(), w.wrapped())), clock.millis());
    }

    /** Adds the next key; when another process added that number first, uses the one it added. */
    private Key add(String tenant, List<WrappedDataKey> keys) {
        int number = keys.isEmpty() ? 1 : keys.get(keys.size() - 1).number() + 1;
        byte[] key = Aead.newKey();
        String kek = provider.activeKeyId(tenant);
        if (store.addDataKey(new WrappedDataKey(tenant, number, kek, provider.wrap(tenant, kek, key)))) {
            opened.put(tenant + "\u0000" + number, key);
            return new Key(number, key, clock.millis());
        }
        return new Key(number, unwrap(tenant, number), clock.millis());
    }

    private byte[] unwrap(String tenant, int number) {
        for (WrappedDataKey w : store.dataKeys(tenant)) {
            if (w.number() == number) {
                return provider.unwrap(tenant, w.kekId(), w.wrapped());
            }
        }
        throw new KeyUnavailableException(tenant, "data key " + number, "the store holds no data key " + number
                + " for the tenant (it was shredded, or the payload comes from another store)");
    }
}
