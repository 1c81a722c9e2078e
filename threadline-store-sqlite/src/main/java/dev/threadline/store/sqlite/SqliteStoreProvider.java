package dev.threadline.store.sqlite;

import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StoreProvider;

/**
 * Opens the SQLite store from a store URL ({@code sqlite:PATH}) for
 * {@link dev.threadline.core.store.StateStores#open}. Registered with the ServiceLoader. Stateless.
 */
public final class SqliteStoreProvider implements StoreProvider {
    @Override
    public boolean accepts(String url) {
        return url.startsWith("sqlite:") && url.length() > 7;
    }

    @Override
    public StateStore open(String url) {
        return SqliteStateStore.open(java.nio.file.Path.of(url.substring(7)));
    }

    @Override
    public String forms() {
        return "sqlite:PATH";
    }
}
