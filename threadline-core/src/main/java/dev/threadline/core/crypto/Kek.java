package dev.threadline.core.crypto;

import dev.threadline.core.error.KeyUnavailableException;
import java.nio.charset.StandardCharsets;

/**
 * Wrapping a data key under a key-encryption key, as the bundled providers do it: AES-GCM with the tenant and
 * the KEK's id as associated data, so a wrapped key opens only for the tenant it was made for. Stateless.
 */
final class Kek {
    private Kek() {}

    static byte[] wrap(byte[] kek, String tenant, String keyId, byte[] dataKey) {
        return Aead.seal(kek, dataKey, aad(tenant, keyId), 0);
    }

    static byte[] unwrap(byte[] kek, String tenant, String keyId, byte[] wrapped, String where) {
        byte[] key = Aead.open(kek, wrapped, aad(tenant, keyId), 0);
        if (key == null) {
            throw new KeyUnavailableException(tenant, keyId, "the data key does not open under the key in " + where
                    + " (a different key under the same id, another tenant's data key, or damaged bytes)");
        }
        return key;
    }

    private static byte[] aad(String tenant, String keyId) {
        return ("threadline-data-key\u0000" + tenant + "\u0000" + keyId).getBytes(StandardCharsets.UTF_8);
    }
}
