package dev.threadline.store.postgres;

import dev.threadline.store.jdbc.Dialect;

/** The kit's {@link Dialect} on this store's tables: its rows classes' statements. */
final class PostgresDialect {
    static final Dialect INSTANCE = Dialect.of(SessionRows::head, EventRows::select, SegmentRows::transcriptEvents,
            SessionPages::list, LeaseRows.INSTANCE);

    private PostgresDialect() {}
}
