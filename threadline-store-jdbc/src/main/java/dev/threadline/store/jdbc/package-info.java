/**
 * The JDBC store kit shared by the SQLite and PostgreSQL stores (ADR 0035). Every class is stateless;
 * none is API.
 */
package dev.threadline.store.jdbc;
