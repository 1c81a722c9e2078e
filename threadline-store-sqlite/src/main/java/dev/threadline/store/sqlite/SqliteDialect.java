package dev.threadline.store.sqlite;

import dev.threadline.store.jdbc.Dialect;
import dev.threadline.store.jdbc.Sealing;

/** The kit's {@link Dialect} on this store's tables: its rows classes' statements. */
final class SqliteDialect {
    /** The dialect of a store that does not seal its payloads. */
    static final Dialect INSTANCE = of(Sealing.PLAIN);

    private SqliteDialect() {}

    /** The dialect of a store whose payloads are stored as {@code sealing} says. */
    static Dialect of(Sealing sealing) {
        return Dialect.of(SessionRows::head,
                (c, key, from, to, transcriptOnly) -> EventRows.select(c, key, from, to, transcriptOnly, sealing),
                (c, key, from, to) -> SegmentRows.transcriptEvents(c, key, from, to, sealing),
                SessionPages::list, LeaseRows.INSTANCE);
    }
}
