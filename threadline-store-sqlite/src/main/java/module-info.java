/**
 * Threadline's SQLite store, the embedded default: {@link dev.threadline.store.sqlite.SqliteStateStore}
 * opens a database file (WAL, group commit, journal segments); {@code sqlite:PATH} store URLs find it
 * through its {@link dev.threadline.core.store.StoreProvider}; {@link dev.threadline.store.sqlite.SqliteBackup}
 * copies a store while it is in use and restores such a copy. Everything else in the package is the
 * store's own and not public.
 */
module dev.threadline.store.sqlite {
    requires transitive dev.threadline.core;
    requires transitive java.sql;
    requires dev.threadline.store.jdbc;
    requires org.xerial.sqlitejdbc;

    exports dev.threadline.store.sqlite;

    provides dev.threadline.core.store.StoreProvider with dev.threadline.store.sqlite.SqliteStoreProvider;
}
