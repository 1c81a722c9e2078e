package dev.threadline.store.postgres;

import dev.threadline.store.jdbc.Dialect;
import dev.threadline.store.jdbc.Sealing;

/** The kit's {@link Dialect} on this store's tables: its rows classes' statements. */
final class PostgresDialect {
    private PostgresDialect() {}

    /** The dialect of a store whose payloads are read as {@code sealing} says (opened when sealed at rest). */
    static Dialect of(Sealing sealing) {
        return Dialect.of(SessionRows::head,
                (c, key, from, to, transcriptOnly) -> EventRows.select(c, key, from, to, transcriptOnly, sealing),
                (c, key, from, to) -> SegmentRows.transcriptEvents(c, key, from, to, sealing), SessionPages::list,
                LeaseRows.INSTANCE);
    }
}
