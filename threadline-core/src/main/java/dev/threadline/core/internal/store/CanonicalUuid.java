package dev.threadline.core.internal.store;

import java.util.UUID;

/**
 * The command ids the runtime makes (canonical lower-case UUID text), which the SQL stores keep as 16
 * bytes: only a form that prints back as exactly the same text is taken for one, so any other id (a
 * caller's own, an upper-case UUID) is kept as the text it is. Stateless.
 */
public final class CanonicalUuid {
    private CanonicalUuid() {}

    /** The UUID whose canonical text is {@code id}, or null when {@code id} is any other text. */
    public static UUID of(String id) {
        if (id.length() != 36 || id.charAt(8) != '-' || id.charAt(13) != '-' || id.charAt(18) != '-' || id.charAt(23) != '-') {
            return null;
        }
        try {
            UUID u = UUID.fromString(id);
            return u.toString().equals(id) ? u : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
