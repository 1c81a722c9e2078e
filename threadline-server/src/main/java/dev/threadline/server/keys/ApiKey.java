package dev.threadline.server.keys;

import java.time.Instant;

/**
 * One API key as the key store lists it: never the secret, only its id, tenant and a short hint of
 * the secret's start (enough to tell keys apart). Immutable.
 *
 * @param id        the key's public id ({@code key_...}), for {@code keys revoke}
 * @param tenant    the tenant the key acts for
 * @param hint      the first characters of the secret, e.g. {@code tl_4fGh}
 * @param createdAt when it was created
 * @param revokedAt when it was revoked, or null while it is valid
 */
public record ApiKey(String id, String tenant, String hint, Instant createdAt, Instant revokedAt) {

    /** Whether this is an admin key: one for the operator's routes under {@code /v1/admin/}, of tenant {@link KeyStore#ADMIN}. */
    public boolean admin() {
        return KeyStore.ADMIN.equals(tenant);
    }

    /** Whether requests carrying this key are accepted. */
    public boolean active() {
        return revokedAt == null;
    }
}
