package dev.threadline.store.postgres;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The payloads the {@link HeadNotifier} sends: one per key, or several keys packed under PostgreSQL's limit. Stateless. */
final class HintPayloads {
    /** PostgreSQL refuses a payload of 8000 bytes or more; entries are packed below this. */
    static final int MAX_BYTES = 7999;
    /** Between two entries of one payload (neither schemas nor ids can hold a space). */
    static final char SEPARATOR = ' ';

    private HintPayloads() {}

    /**
     * The payloads that carry {@code entries}: packed, as few as fit under {@code maxBytes} (UTF-8)
     * each, entries separated by {@link #SEPARATOR}; otherwise one per entry.
     */
    static List<String> of(Collection<String> entries, int maxBytes, boolean packed) {
        List<String> out = new ArrayList<>();
        if (!packed) {
            out.addAll(entries);
            return out;
        }
        StringBuilder current = new StringBuilder();
        int bytes = 0;
        for (String e : entries) {
            int n = e.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > 0 && bytes + 1 + n > maxBytes) {
                out.add(current.toString());
                current.setLength(0);
                bytes = 0;
            }
            if (bytes > 0) {
                current.append(SEPARATOR);
                bytes++;
            }
            current.append(e);
            bytes += n;
        }
        if (bytes > 0) {
            out.add(current.toString());
        }
        return out;
    }
}
