package dev.threadline.server;

/**
 * What one request may carry. Immutable.
 *
 * @param maxBodyBytes     largest request body (413 past it)
 * @param maxTextChars     longest message text, system prompt or compaction focus
 * @param maxMetadataPairs most metadata pairs on a session (and in a listing filter)
 * @param maxValueChars    longest metadata key or value, user id, or other short string
 */
public record Limits(long maxBodyBytes, int maxTextChars, int maxMetadataPairs, int maxValueChars) {
    /** 1 MiB bodies, 100,000-character texts, 64 metadata pairs of 512 characters. */
    public static final Limits DEFAULT = new Limits(1 << 20, 100_000, 64, 512);

    public Limits {
        if (maxBodyBytes < 1024 || maxTextChars < 1 || maxMetadataPairs < 0 || maxValueChars < 1) {
            throw new IllegalArgumentException("limits must be positive (bodies at least 1 KiB)");
        }
    }
}
