package dev.threadline.core.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.KeyUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The local keyring file (ADR 0049, {@code docs/security.md}):
 * <pre>
 * {"tenants": {"acme": {"active": "acme-2", "keys": {"acme-1": "&lt;base64&gt;", "acme-2": "&lt;base64&gt;"}},
 *              "*":    {"active": "all-1",  "keys": {"all-1": "&lt;base64&gt;"}}}}
 * </pre>
 * Each key is 32 bytes in base64; {@code *} serves tenants not named. Read once; immutable; thread-safe.
 */
final class Keyring implements KeyProvider {
    /** The entry of the tenants the keyring does not name. */
    public static final String ANY = "*";

    private record Tenant(String active, Map<String, byte[]> keys) {
    }

    private final Path file;
    private final Map<String, Tenant> tenants;

    private Keyring(Path file, Map<String, Tenant> tenants) {
        this.file = file;
        this.tenants = tenants;
    }

    /**
     * Reads the keyring in {@code file}.
     *
     * @throws InvalidInputException naming the file and what is wrong
     */
    public static Keyring read(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new InvalidInputException("keyring", "cannot read the keyring " + file + ": " + e.getMessage());
        }
        if (root == null || !root.path("tenants").isObject()) {
            throw new InvalidInputException("keyring", file + " is not a keyring: it needs an object \"tenants\"");
        }
        Map<String, Tenant> tenants = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.get("tenants").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> t = it.next();
            String where = file + ", tenant '" + t.getKey() + "'";
            JsonNode keys = t.getValue().path("keys");
            if (!keys.isObject() || keys.isEmpty()) {
                throw new InvalidInputException("keyring", where + ": \"keys\" must be an object of key ids to keys");
            }
            Map<String, byte[]> byId = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> k = keys.fields(); k.hasNext(); ) {
                Map.Entry<String, JsonNode> e = k.next();
                byId.put(e.getKey(), decode(e.getValue().asText(""), where + ", key '" + e.getKey() + "'"));
            }
            String active = t.getValue().path("active").asText("");
            if (!byId.containsKey(active)) {
                throw new InvalidInputException("keyring", where + ": \"active\" must name one of its keys " + byId.keySet()
                        + ", not '" + active + "'");
            }
            tenants.put(t.getKey(), new Tenant(active, Map.copyOf(byId)));
        }
        return new Keyring(file, Map.copyOf(tenants));
    }

    /** 32 bytes from base64, or a refusal naming {@code where}. */
    static byte[] decode(String base64, String where) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("keyring", where + " is not base64");
        }
        if (key.length != Aead.KEY_BYTES) {
            throw new InvalidInputException("keyring", where + " is " + key.length + " bytes; a key is " + Aead.KEY_BYTES
                    + " bytes (openssl rand -base64 32)");
        }
        return key;
    }

    @Override
    public String activeKeyId(String tenant) {
        return entry(tenant).active();
    }

    @Override
    public byte[] wrap(String tenant, String keyId, byte[] dataKey) {
        return Kek.wrap(kek(tenant, keyId), tenant, keyId, dataKey);
    }

    @Override
    public byte[] unwrap(String tenant, String keyId, byte[] wrapped) {
        return Kek.unwrap(kek(tenant, keyId), tenant, keyId, wrapped, "the keyring " + file);
    }

    private Tenant entry(String tenant) {
        Tenant t = tenants.getOrDefault(tenant, tenants.get(ANY));
        if (t == null) {
            throw new KeyUnavailableException(tenant, "-", "the keyring " + file + " has no entry for it and no \"*\" entry");
        }
        return t;
    }

    private byte[] kek(String tenant, String keyId) {
        byte[] k = entry(tenant).keys().get(keyId);
        if (k == null) {
            throw new KeyUnavailableException(tenant, keyId, "the keyring " + file + " does not hold it (never added, or"
                    + " destroyed: what it wrapped stays unreadable)");
        }
        return k;
    }

    @Override
    public String toString() {
        return "keyring " + file + " (" + tenants.size() + " tenant entries)"; // never the keys
    }
}
