package dev.threadline.core.crypto;

import dev.threadline.core.error.KeyUnavailableException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Keys from environment variables: {@code THREADLINE_KEK_<TENANT>} for a tenant, {@code THREADLINE_KEK} for
 * every other one (ADR 0049); a key's id is {@code env:<variable>}. Read once; immutable; thread-safe.
 */
final class EnvironmentKeys implements KeyProvider {
    /** The variable of every tenant without its own. */
    public static final String ANY = "THREADLINE_KEK";

    private final Map<String, byte[]> byVariable;

    private EnvironmentKeys(Map<String, byte[]> byVariable) {
        this.byVariable = byVariable;
    }

    /**
     * The keys among {@code environment}'s variables.
     *
     * @throws dev.threadline.core.error.InvalidInputException naming a variable whose value is not 32 bytes of base64
     */
    public static EnvironmentKeys of(Map<String, String> environment) {
        Map<String, byte[]> keys = new HashMap<>();
        environment.forEach((name, value) -> {
            if (name.equals(ANY) || name.startsWith(ANY + "_")) {
                keys.put(name, Keyring.decode(value, "the environment variable " + name));
            }
        });
        return new EnvironmentKeys(Map.copyOf(keys));
    }

    /** The variable that holds {@code tenant}'s own key. */
    public static String variable(String tenant) {
        return ANY + "_" + tenant.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    @Override
    public String activeKeyId(String tenant) {
        String own = variable(tenant);
        if (byVariable.containsKey(own)) {
            return "env:" + own;
        }
        if (byVariable.containsKey(ANY)) {
            return "env:" + ANY;
        }
        throw new KeyUnavailableException(tenant, "-", "neither " + own + " nor " + ANY + " is set");
    }

    @Override
    public byte[] wrap(String tenant, String keyId, byte[] dataKey) {
        return Kek.wrap(kek(tenant, keyId), tenant, keyId, dataKey);
    }

    @Override
    public byte[] unwrap(String tenant, String keyId, byte[] wrapped) {
        return Kek.unwrap(kek(tenant, keyId), tenant, keyId, wrapped, "the environment variable " + keyId.substring(4));
    }

    private byte[] kek(String tenant, String keyId) {
        byte[] k = keyId.startsWith("env:") ? byVariable.get(keyId.substring(4)) : null;
        if (k == null) {
            throw new KeyUnavailableException(tenant, keyId, keyId.startsWith("env:") ? "the environment variable "
                    + keyId.substring(4) + " is not set" : "it is not a key of environment variables (env:<variable>)");
        }
        return k;
    }

    @Override
    public String toString() {
        return "environment keys " + byVariable.keySet(); // the variables' names, never the keys
    }
}
