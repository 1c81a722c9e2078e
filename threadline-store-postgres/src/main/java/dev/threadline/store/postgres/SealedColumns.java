package dev.threadline.store.postgres;

import java.util.ArrayList;
import java.util.List;

/**
 * Migration 11: encryption at rest (ADR 0049, step 4). Each payload column gets a nullable {@code bytea} column
 * beside it, named with {@link dev.threadline.store.jdbc.Sealing#SEALED_SUFFIX}, where a store opened with keys
 * writes the sealed payload; a store without keys keeps writing the text column exactly as before, so an
 * unencrypted store's rows, statements and sizes do not change. The text columns that were {@code NOT NULL}
 * become nullable (a sealed row has its payload only in the {@code bytea} column) and a {@code CHECK} says at most
 * one of the two is set ({@code NOT VALID}: the rows already there hold only text, and validating would read the
 * tables). Every statement here changes only the catalog: adding a nullable column without a default, dropping a
 * {@code NOT NULL}, an unvalidated {@code CHECK} and a column's storage mode take their lock for a moment and
 * rewrite nothing, unlike {@code ALTER COLUMN TYPE}, which would rewrite each table under an exclusive lock.
 * The sealed columns are {@code STORAGE EXTERNAL}: ciphertext does not compress, so PostgreSQL is not made to try.
 * Stateless.
 */
final class SealedColumns {
    /** Each table with a payload column, and the column. */
    static final List<String[]> PAYLOADS = List.of(
            new String[] {"events", "payload"},
            new String[] {"segments", "payloads"},
            new String[] {"snapshots", "payload"},
            new String[] {"history_bases", "payload"},
            new String[] {"variables", "value"},
            new String[] {"commands", "result"},
            new String[] {"interrupts", "reason"});

    /** Version 11: the {@code bytea} column beside each payload column. */
    static final Migration V11 = new Migration(11, "a bytea column beside each payload column, for sealed payloads",
            statements());

    private SealedColumns() {}

    private static List<String> statements() {
        List<String> out = new ArrayList<>();
        for (String[] t : PAYLOADS) {
            String table = t[0];
            String column = t[1];
            String sealed = column + dev.threadline.store.jdbc.Sealing.SEALED_SUFFIX;
            out.add("ALTER TABLE " + table + " ALTER COLUMN " + column + " DROP NOT NULL, ADD COLUMN " + sealed + " bytea,"
                    + " ALTER COLUMN " + sealed + " SET STORAGE EXTERNAL, ADD CONSTRAINT " + table + "_one_payload CHECK ("
                    + column + " IS NULL OR " + sealed + " IS NULL) NOT VALID");
        }
        return out;
    }
}
