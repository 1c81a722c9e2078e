package dev.threadline.store.sqlite;

import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StoreProvider;
import java.nio.file.Path;

/**
 * Opens the SQLite store from a store URL for {@link dev.threadline.core.store.StateStores#open}:
 * {@code sqlite:PATH}, or with encryption at rest (ADR 0049, {@code docs/security.md})
 * {@code sqlite:PATH?keys=keyring:FILE} (the keyring file {@link KeyProviders#keyring} reads) or
 * {@code sqlite:PATH?keys=env} ({@link KeyProviders#environment()}: {@code THREADLINE_KEK_<TENANT>}, then
 * {@code THREADLINE_KEK}). Everything after the first {@code ?} is options. Registered with the ServiceLoader. Stateless.
 */
public final class SqliteStoreProvider implements StoreProvider {
    private static final String FORM = "sqlite:PATH[?keys=env|keys=keyring:FILE]";

    @Override
    public boolean accepts(String url) {
        return url.startsWith("sqlite:") && url.length() > 7;
    }

    @Override
    public StateStore open(String url) {
        String rest = url.substring(7);
        int q = rest.indexOf('?');
        SqliteStateStore.Options options = SqliteStateStore.Options.defaults();
        if (q >= 0) {
            options = options.withKeys(keys(url, rest.substring(q + 1)));
            rest = rest.substring(0, q);
        }
        if (rest.isBlank()) {
            throw new InvalidInputException("store url", "'" + url + "' names no file; expected " + FORM);
        }
        return SqliteStateStore.open(Path.of(rest), options);
    }

    /** The key provider the options name (null when none). */
    static KeyProvider keys(String url, String query) {
        KeyProvider keys = null;
        for (String option : query.split("&")) {
            if (option.isEmpty()) {
                continue;
            }
            int eq = option.indexOf('=');
            String name = eq < 0 ? option : option.substring(0, eq);
            String value = eq < 0 ? "" : option.substring(eq + 1);
            if (!name.equals("keys")) {
                throw new InvalidInputException("store url", "'" + url + "': unknown option '" + name + "'; expected " + FORM);
            }
            if (value.equals("env")) {
                keys = KeyProviders.environment();
            } else if (value.startsWith("keyring:") && value.length() > 8) {
                keys = KeyProviders.keyring(Path.of(value.substring(8)));
            } else {
                throw new InvalidInputException("store url", "'" + url + "': keys='" + value
                        + "' names no key provider; use keys=env or keys=keyring:FILE");
            }
        }
        return keys;
    }

    @Override
    public String forms() {
        return FORM;
    }
}
