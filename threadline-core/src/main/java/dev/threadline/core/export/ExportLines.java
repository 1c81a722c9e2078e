package dev.threadline.core.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;

/**
 * The one line format of a journal entry outside the store: what {@code threadline sessions export} writes,
 * what {@code GET /v1/sessions/{id}/export} answers line by line, and the data of a journal event on a
 * server-sent event stream. A line is
 * {@code {"v","session","seq","step","time","command","source","event":{"type":…}}}; {@code v} is the record
 * version of the event's shape, so a line written by an older release is read back with that release's
 * upgrades. Stateless and thread-safe.
 */
public final class ExportLines {
    /** The version this release writes in {@code v} (and reads without an upgrade). */
    public static final int VERSION = RecordCodec.VERSION;

    private ExportLines() {}

    /** {@code e} as one export line. */
    public static ObjectNode of(StoredEvent e) {
        return RecordCodec.exportLine(e);
    }

    /**
     * Reads an export line back (the inverse of {@link #of}), upgrading a line of an older version.
     *
     * @throws dev.threadline.core.error.StorageException when the line's event is corrupt or of a newer version
     */
    public static StoredEvent read(JsonNode line) {
        return RecordCodec.importLine(line);
    }
}
