package dev.threadline.store.redis;

import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StoreProvider;

/**
 * Opens the Redis store from a store URL ({@code redis://host:port, redis-cluster://host:port,host:port,...}) for
 * {@link dev.threadline.core.store.StateStores#open}; {@code ?keys=keyring:FILE} or {@code ?keys=env} turns
 * encryption at rest on (ADR 0049, {@code docs/security.md}). Registered with the ServiceLoader. Stateless.
 */
public final class RedisStoreProvider implements StoreProvider {
    @Override
    public boolean accepts(String url) {
        return RedisStateStore.accepts(url);
    }

    @Override
    public StateStore open(String url) {
        return RedisStateStore.open(url, null);
    }

    @Override
    public String forms() {
        return "redis://host:port, redis-cluster://host:port,host:port,... (either with ?replicas=N&replicaTimeout=2s to wait for"
                + " replicas, and ?" + KeysOption.FORM + " to seal payloads at rest)";
    }
}
