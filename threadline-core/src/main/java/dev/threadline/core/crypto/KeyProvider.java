package dev.threadline.core.crypto;

/**
 * Where the key-encryption keys (KEKs) of encryption at rest live, outside the state store (ADR 0049): a
 * store keeps each tenant's data keys only wrapped by a KEK, so whoever holds the store (or a backup of it)
 * without the KEKs reads nothing, and destroying a tenant's KEKs here makes all its data unreadable
 * everywhere (crypto-shredding). Threadline's own providers are a local keyring file and an environment
 * variable ({@link KeyProviders}); a cloud KMS is a provider a user writes: wrap and unwrap are the two calls
 * it makes, once per data key, never per event. Implementations must be thread-safe.
 */
public interface KeyProvider {
    /**
     * The id of the KEK new data keys of {@code tenant} are wrapped under (the newest one: rotation adds a
     * key and makes it active, older ones stay to unwrap what they wrapped).
     *
     * @throws dev.threadline.core.error.KeyUnavailableException when the provider has no key for the tenant
     */
    String activeKeyId(String tenant);

    /**
     * Wraps (encrypts) a data key of {@code tenant} under the KEK {@code keyId}.
     *
     * @param tenant  the tenant the data key is for (bound to the result: it unwraps only for this tenant)
     * @param keyId   the KEK to wrap it under, usually {@link #activeKeyId}
     * @param dataKey the data key's bytes
     * @return the wrapped key, opaque to the store that keeps it
     * @throws dev.threadline.core.error.KeyUnavailableException when the KEK is not in the provider
     */
    byte[] wrap(String tenant, String keyId, byte[] dataKey);

    /**
     * Unwraps a data key {@link #wrap} made.
     *
     * @throws dev.threadline.core.error.KeyUnavailableException when the KEK is not in the provider (never there,
     *         or destroyed), or the wrapped bytes do not open under it for this tenant (a wrong key, or damage)
     */
    byte[] unwrap(String tenant, String keyId, byte[] wrapped);
}
