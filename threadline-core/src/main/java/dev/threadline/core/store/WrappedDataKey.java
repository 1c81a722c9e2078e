package dev.threadline.core.store;

import dev.threadline.core.error.InvalidInputException;
import java.util.Arrays;

/**
 * A tenant's data key of encryption at rest as a store keeps it: wrapped by a key-encryption key the store
 * never sees (ADR 0049). Immutable (the bytes are copied in and out).
 *
 * @param tenant  whose key it is
 * @param number  its number, from 1, named in every payload sealed under it
 * @param kekId   the id of the key-encryption key it is wrapped under
 * @param wrapped the key, wrapped
 */
public record WrappedDataKey(String tenant, int number, String kekId, byte[] wrapped) {
    /** @throws InvalidInputException naming the field when the tenant or KEK id is blank, the number below 1 or the bytes empty */
    public WrappedDataKey {
        if (tenant == null || tenant.isBlank()) {
            throw new InvalidInputException("tenant", "a data key needs its tenant");
        }
        if (number < 1) {
            throw new InvalidInputException("number", "a data key's number is 1 or more, not " + number);
        }
        if (kekId == null || kekId.isBlank()) {
            throw new InvalidInputException("kekId", "a data key needs the id of the key it is wrapped under");
        }
        if (wrapped == null || wrapped.length == 0) {
            throw new InvalidInputException("wrapped", "a data key needs its wrapped bytes");
        }
        wrapped = wrapped.clone();
    }

    @Override
    public byte[] wrapped() {
        return wrapped.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WrappedDataKey k && k.tenant.equals(tenant) && k.number == number && k.kekId.equals(kekId)
                && Arrays.equals(k.wrapped, wrapped);
    }

    @Override
    public int hashCode() {
        return (tenant.hashCode() * 31 + number) * 31 + Arrays.hashCode(wrapped);
    }

    @Override
    public String toString() {
        return "WrappedDataKey[" + tenant + " #" + number + " under " + kekId + ", " + wrapped.length + " bytes]";
    }
}
