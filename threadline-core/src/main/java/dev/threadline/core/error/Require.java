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
}
