package dev.threadline.core.internal.store;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.session.SessionInfo;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * A sessions-listing position shared by every store: the order key ({@code position}, e.g. the last
 * row's update time in the store's own unit) and id of a page's last row. Its text form
 * {@code tag.position.id.crc} carries the tag of the query it belongs to ({@link StoreChecks#queryTag})
 * and a checksum, so a cursor of another query, a cut one or garbage is refused with a clear error.
 * Immutable.
 *
 * @param position the last row's order key
 * @param id       the last row's session id
 */
public record ListingCursor(long position, String id) {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    /** The cursor's text for the query tagged {@code tag}. */
    public String format(String tag) {
        String body = tag + "." + position + "." + ENCODER.encodeToString(id.getBytes(StandardCharsets.UTF_8));
        return body + "." + crc(body);
    }

    /**
     * Reads a cursor this store returned for the query tagged {@code tag}.
     *
     * @throws InvalidInputException (field {@code cursor}) when {@code text} is not such a cursor, or belongs to another query
     */
    public static ListingCursor parse(String text, String tag) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4 || !crc(parts[0] + "." + parts[1] + "." + parts[2]).equals(parts[3])) {
            throw new InvalidInputException("cursor", "'" + text + "' is not a cursor this store returned");
        }
        if (!parts[0].equals(tag)) {
            throw new InvalidInputException("cursor", "'" + text + "' belongs to another query (tenant, user or"
                    + " metadata filter); start that query again without a cursor");
        }
        try {
            String id = new String(Base64.getUrlDecoder().decode(parts[2]), StandardCharsets.UTF_8);
            return new ListingCursor(Long.parseLong(parts[1]), SessionInfo.checkId(id, "cursor"));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("cursor", "'" + text + "' is not a cursor this store returned");
        }
    }

    /** Whether a row at ({@code rowPosition}, {@code rowId}) comes after this cursor in a newest-first listing. */
    public boolean before(long rowPosition, String rowId) {
        return rowPosition < position || (rowPosition == position && rowId.compareTo(id) > 0);
    }

    private static String crc(String body) {
        CRC32 c = new CRC32();
        c.update(body.getBytes(StandardCharsets.UTF_8));
        return String.format("%08x", c.getValue());
    }
}
