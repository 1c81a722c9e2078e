/**
 * Threadline's PostgreSQL store: {@link dev.threadline.store.postgres.PostgresStateStore} keeps sessions in
 * one PostgreSQL database shared by many processes (leases with fencing, LISTEN/NOTIFY for live heads);
 * {@code postgresql://} store URLs find it through its
 * {@link dev.threadline.core.store.StoreProvider}. Everything else in the package is the store's own and
 * not public.
 */
module dev.threadline.store.postgres {
    requires transitive dev.threadline.core;
    requires transitive java.sql;
    requires dev.threadline.store.jdbc;
    requires org.postgresql.jdbc;
    requires com.zaxxer.hikari;

    exports dev.threadline.store.postgres;

    provides dev.threadline.core.store.StoreProvider with dev.threadline.store.postgres.PostgresStoreProvider;
}
