package dev.threadline.core.error;

/** Argument checks that fail with {@link InvalidInputException} naming the field. Stateless: safe from any thread. */
public final class Require {
    private Require() {}

    /**
     * Returns {@code value} when it is not null.
     *
     * @throws InvalidInputException naming {@code field} when {@code value} is null
     */
    public static <T> T nonNull(T value, String field) {
        if (value == null) {
            throw new InvalidInputException(field, "must not be null");
        }
        return value;
    }

    /**
     * Returns {@code value} when it has a non-whitespace character.
     *
     * @throws InvalidInputException naming {@code field} when {@code value} is null or blank
     */
    public static String nonBlank(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException(field, "must not be blank");
        }
        return value;
    }

    /**
     * Checks a precondition.
     *
     * @throws InvalidInputException naming {@code field} and {@code reason} when {@code condition} is false
     */
    public static void argument(boolean condition, String field, String reason) {
        if (!condition) {
            throw new InvalidInputException(field, reason);
        }
    }

    /**
     * {@code url} stripped, or null when it is null or blank.
     *
     * @throws InvalidInputException naming {@code field} when it is not an http(s) URL with a host
     */
    public static String httpUrl(String url, String field) {
        if (url == null || url.isBlank()) {
            return null;
        }
        String u = url.strip();
        java.net.URI uri;
        try {
            uri = java.net.URI.create(u);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(field, "'" + u + "' is not a URL: " + e.getMessage());
        }
        Require.argument(("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null, field,
                "'" + u + "' must be an http(s) URL with a host, e.g. http://127.0.0.1:11434/v1");
        return u;
    }
}
