package dev.threadline.core.crypto;

import java.nio.file.Path;
import java.util.Map;

/** The key providers Threadline ships (ADR 0049). */
public final class KeyProviders {
    private KeyProviders() {}

    /**
     * The keyring in {@code file}: per tenant, its key-encryption keys by id and which one is active (the
     * format is in {@code docs/security.md}). Read once, here; keep the file away from the store and its
     * backups, readable only by the processes that serve the tenants.
     *
     * @throws dev.threadline.core.error.InvalidInputException naming the file and what is wrong with it (unreadable,
     *         not the keyring's JSON, a key that is not 32 bytes of base64, an active id with no key)
     */
    public static KeyProvider keyring(Path file) {
        return Keyring.read(file);
    }

    /**
     * The keys in the environment variables {@code THREADLINE_KEK_<TENANT>} (the tenant's name upper-cased, every
     * character other than a letter or digit as {@code _}) and, for every other tenant, {@code THREADLINE_KEK}:
     * 32 bytes in base64, with the key id {@code env:<variable>}. One variable for all tenants cannot shred one
     * tenant alone; a variable per tenant can.
     *
     * @throws dev.threadline.core.error.InvalidInputException naming the variable whose value is not 32 bytes of base64
     */
    public static KeyProvider environment(Map<String, String> environment) {
        return EnvironmentKeys.of(environment);
    }

    /** {@link #environment(Map)} of this process's environment. */
    public static KeyProvider environment() {
        return environment(System.getenv());
    }
}
