package dev.threadline.core;

/** Argument checks that fail with {@link InvalidInputException} naming the field. */
public final class Require {
    private Require() {}

    public static <T> T nonNull(T value, String field) {
        if (value == null) {
            throw new InvalidInputException(field, "must not be null");
        }
        return value;
    }

    public static String nonBlank(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException(field, "must not be blank");
        }
        return value;
    }

    public static void argument(boolean condition, String field, String reason) {
        if (!condition) {
            throw new InvalidInputException(field, reason);
        }
    }
}
