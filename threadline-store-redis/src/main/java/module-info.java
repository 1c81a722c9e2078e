/**
 * Threadline's Redis store: {@link dev.threadline.store.redis.RedisStateStore} keeps sessions in Redis
 * (standalone or Cluster), each write one Lua script so a step and its lease check commit together;
 * {@code redis://} and {@code redis-cluster://} store URLs find it through its {@link dev.threadline.core.store.StoreProvider}.
 * Everything else in the package is the store's own and not public.
 */
module dev.threadline.store.redis {
    requires transitive dev.threadline.core;
    requires lettuce.core;
    requires io.netty.buffer; // the store's codec (ValueCodec) writes sealed values straight into Lettuce's buffers

    exports dev.threadline.store.redis;

    provides dev.threadline.core.store.StoreProvider with dev.threadline.store.redis.RedisStoreProvider;
}
