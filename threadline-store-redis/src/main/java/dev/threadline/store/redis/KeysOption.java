package dev.threadline.store.redis;

import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.error.InvalidInputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code keys} option of a Redis store URL (encryption at rest, ADR 0049), with the grammar of SQLite's:
 * {@code keys=keyring:FILE} (the keyring file {@link KeyProviders#keyring} reads) or {@code keys=env}
 * ({@link KeyProviders#environment()}). It is split off the query before the URL reaches Lettuce; the other
 * parameters stay. Stateless.
 */
final class KeysOption {
    /** The form of the option, for messages and the provider's forms. */
    static final String FORM = "keys=env|keys=keyring:FILE";

    private KeysOption() {}

    /** The URL without its {@code keys} parameter, and the provider that parameter names (null when none). */
    record Parsed(String url, KeyProvider keys) {
    }

    /**
     * Splits {@code keys} off the URL's query (the URL with a redacted password in messages).
     *
     * @throws InvalidInputException when its value names no key provider, or it is given twice
     */
    static Parsed parse(String url) {
        int q = url == null ? -1 : url.indexOf('?');
        if (q < 0) {
            return new Parsed(url, null);
        }
        KeyProvider keys = null;
        List<String> kept = new ArrayList<>();
        for (String p : url.substring(q + 1).split("&")) {
            if (!p.equals("keys") && !p.startsWith("keys=")) {
                if (!p.isEmpty()) {
                    kept.add(p);
                }
                continue;
            }
            String value = p.substring(Math.min(p.length(), 5));
            if (keys != null) {
                throw new InvalidInputException("store url", "'" + Connection.redacted(url) + "' gives keys twice; give one of " + FORM);
            }
            if (value.equals("env")) {
                keys = KeyProviders.environment();
            } else if (value.startsWith("keyring:") && value.length() > 8) {
                keys = KeyProviders.keyring(Path.of(value.substring(8)));
            } else {
                throw new InvalidInputException("store url", "'" + Connection.redacted(url) + "': keys='" + value
                        + "' names no key provider; use keys=env or keys=keyring:FILE");
            }
        }
        return new Parsed(url.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept)), keys);
    }
}
