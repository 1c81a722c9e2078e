package dev.threadline.store.postgres;

import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StoreProvider;

/**
 * Opens the PostgreSQL store from a store URL ({@code postgresql://user:password@host:port/db}) for
 * {@link dev.threadline.core.store.StateStores#open}; {@code ?keys=env} or {@code ?keys=keyring:FILE} turns on
 * encryption at rest (ADR 0049, {@code docs/security.md}). Registered with the ServiceLoader. Stateless.
 */
public final class PostgresStoreProvider implements StoreProvider {
    @Override
    public boolean accepts(String url) {
        return PostgresStateStore.handles(url);
    }

    @Override
    public StateStore open(String url) {
        return PostgresStateStore.open(url);
    }

    @Override
    public String forms() {
        return "postgresql://user:password@host:port/db[?keys=env|keys=keyring:FILE]";
    }
}
