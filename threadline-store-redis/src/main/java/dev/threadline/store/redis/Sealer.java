package dev.threadline.store.redis;

import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.error.StorageException;
import java.nio.charset.StandardCharsets;

/**
 * How the Redis store turns its payloads into stored values and back (encryption at rest, ADR 0049). {@link #PLAIN}
 * (a store opened without keys) keeps them as the UTF-8 text they always were and refuses a sealed one with a clear
 * line; {@link #by} seals every payload with a {@link PayloadSealer} into raw bytes (carried as a {@link ValueCodec}
 * carrier) and opens every stored value that is sealed, while plain values written before keys keep reading. The
 * associated data of a payload is its {@link Place}: a value copied to another key or field does not open.
 *
 * <p>Two forms: a sealed value ({@link #seal}), and a sealed value with a clear tail ({@link #sealWithTail}): the
 * sealed bytes, a newline, then clear UTF-8 text without a newline (an event's header, a command's fingerprint
 * and seq), so what the store reads for its own work stays readable without the key.
 *
 * <p>A store that seals calls {@link #ready} for each tenant a write touches on the caller's thread before the write:
 * that is where a missing or wrong key is refused, with nothing written. Thread-safe: the sealer is.
 */
final class Sealer {
    /** No keys: values are written plain; a sealed one read is refused with one line. */
    static final Sealer PLAIN = new Sealer(null);

    private final PayloadSealer sealer;

    private Sealer(PayloadSealer sealer) {
        this.sealer = sealer;
    }

    /** Every payload sealed and opened by {@code sealer}. */
    static Sealer by(PayloadSealer sealer) {
        return new Sealer(java.util.Objects.requireNonNull(sealer, "sealer"));
    }

    /** Whether this store seals what it writes. */
    boolean on() {
        return sealer != null;
    }

    /**
     * Makes sure {@code tenant} can be sealed for (its data key found or made, and unwrapped); nothing when off.
     *
     * @throws dev.threadline.core.error.KeyUnavailableException naming the tenant and key id when its key is missing or wrong
     */
    void ready(String tenant) {
        if (sealer != null) {
            sealer.ready(tenant);
        }
    }

    /** A new data key for {@code tenant} ({@link PayloadSealer#rotate}); only when {@link #on}. */
    int rotate(String tenant) {
        return sealer.rotate(tenant);
    }

    /**
     * The number of {@code tenant}'s newest data key, made ready ({@link PayloadSealer#ready}); only when {@link #on}.
     *
     * @throws dev.threadline.core.error.KeyUnavailableException when its key is missing or wrong
     */
    int newest(String tenant) {
        return sealer.ready(tenant);
    }

    /**
     * Whether {@code stored} (with or without a clear tail) is sealed under data key {@code number} or a newer one, so a
     * re-seal to {@code number} leaves it; false for a plain value.
     */
    static boolean under(String stored, int number) {
        return ValueCodec.isCarrier(stored) && stored.length() > 5 && PayloadSealer.keyNumber(ValueCodec.bytes(stored, 1, 6)) >= number;
    }

    /** The tenant's data keys wrapped again under the active key-encryption key ({@link PayloadSealer#rewrap}); only when {@link #on}. */
    int rewrap(String tenant) {
        return sealer.rewrap(tenant);
    }

    /**
     * Where a payload is, its associated data: what kind it is, the tenant whose data key seals it and two parts
     * that locate it (a session and a seq, a scope and a variable name...). Immutable.
     */
    record Place(String kind, String tenant, String where, String at) {
        byte[] bytes() {
            return (kind + '\u0000' + tenant + '\u0000' + where + '\u0000' + at).getBytes(StandardCharsets.UTF_8);
        }

        String describe() {
            return ("aeiou".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ") + kind + " payload of tenant '" + tenant + "' (" + where + (at.isEmpty() ? "" : " " + at) + ")";
        }
    }

    /** {@code text} as stored: itself when off, else sealed for {@code place}. */
    String seal(String text, Place place) {
        if (sealer == null) {
            return text;
        }
        return ValueCodec.carry(sealer.seal(place.tenant(), text.getBytes(StandardCharsets.UTF_8), place.bytes()));
    }

    /**
     * The text {@code stored} holds (null stays null): itself when plain, opened when sealed.
     *
     * @throws dev.threadline.core.error.KeyUnavailableException when its key-encryption key is missing or wrong
     * @throws StorageException naming the tenant and data key number when it does not open, or when this store has no keys
     */
    String open(String stored, Place place) {
        if (!ValueCodec.isCarrier(stored)) {
            return stored;
        }
        return text(opened(ValueCodec.bytes(stored, 1, stored.length()), place));
    }

    /** {@code payload} sealed for {@code place}, then a newline and {@code tail} in clear; only when {@link #on}. */
    String sealWithTail(String payload, String tail, Place place) {
        return seal(payload, place) + '\n' + new String(tail.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /** Whether {@code stored} is a sealed value (with or without a tail), which {@link #tail} and {@link #openHead} read. */
    static boolean sealed(String stored) {
        return ValueCodec.isCarrier(stored);
    }

    /**
     * The clear tail of a value {@link #sealWithTail} made, or null when it has none.
     */
    static String tail(String stored) {
        int eol = stored.lastIndexOf('\n');
        return eol < 0 ? null : text(ValueCodec.bytes(stored, eol + 1, stored.length()));
    }

    /**
     * The payload of a value {@link #sealWithTail} made, opened.
     *
     * @throws StorageException as {@link #open} does
     */
    String openHead(String stored, Place place) {
        int eol = stored.lastIndexOf('\n');
        return text(opened(ValueCodec.bytes(stored, 1, eol < 0 ? stored.length() : eol), place));
    }

    private byte[] opened(byte[] sealed, Place place) {
        if (sealer == null) {
            throw new StorageException(place.describe() + " is sealed (encryption at rest); open the store with its keys"
                    + " (redis://...?keys=keyring:FILE or ?keys=env)");
        }
        return sealer.open(place.tenant(), sealed, place.bytes());
    }

    private static String text(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
