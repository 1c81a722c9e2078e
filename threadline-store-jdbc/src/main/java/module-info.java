/**
 * The JDBC store kit: what Threadline's SQLite and PostgreSQL stores share (the rows of the tables they
 * have in common, the sessions' codec and listing pages, one-line errors, the unit of work a store runs
 * on a connection). Each store keeps only what its database does differently: group commit and
 * segments on SQLite; the heads table, notifications, batching and locks on PostgreSQL. Not an API:
 * exported only to those two stores.
 */
module dev.threadline.store.jdbc {
    requires transitive dev.threadline.core;
    requires transitive java.sql;

    exports dev.threadline.store.jdbc to dev.threadline.store.sqlite, dev.threadline.store.postgres;
}
