/**
 * A modular application on Threadline: it reads the stores' modules, so they are resolved as named modules
 * (with core and the JDBC kit they require); the store itself is chosen by URL through core's
 * {@code uses StoreProvider}.
 */
module dev.threadline.examples.modular {
    requires dev.threadline.store.sqlite;
    requires dev.threadline.store.postgres;
    requires dev.threadline.store.redis;
}
