package dev.threadline.store.sqlite;

import dev.threadline.store.jdbc.Dialect;

/** The kit's {@link Dialect} on this store's tables: its rows classes' statements. */
final class SqliteDialect {
    static final Dialect INSTANCE = Dialect.of(SessionRows::head, EventRows::select, SegmentRows::transcriptEvents,
            SessionPages::list, LeaseRows.INSTANCE);

    private SqliteDialect() {}
}
