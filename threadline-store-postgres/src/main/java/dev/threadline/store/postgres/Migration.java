package dev.threadline.store.postgres;

import java.util.List;

/**
 * One step of the schema: the statements that bring a database from {@code version - 1} to
 * {@code version}, run in one transaction together with the insert of its {@code schema_version} row.
 * Immutable.
 *
 * @param version     the version the schema has after it (from 1)
 * @param description what it changes, kept in {@code schema_version}
 * @param statements  plain SQL, in order
 */
record Migration(int version, String description, List<String> statements) {
    Migration {
        statements = List.copyOf(statements);
    }
}
