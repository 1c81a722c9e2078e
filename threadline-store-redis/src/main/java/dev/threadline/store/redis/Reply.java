package dev.threadline.store.redis;

import java.util.List;

/**
 * A script's reply: a status word ({@code OK}, {@code NF}, {@code PEND}, {@code SEQ}, ...) and its
 * values, as Lettuce returns them (strings, longs, nested lists, nulls). Immutable.
 */
record Reply(String status, List<Object> values) {

    static Reply of(List<Object> raw) {
        if (raw == null || raw.isEmpty()) {
            throw new IllegalStateException("a store script replied nothing");
        }
        return new Reply(String.valueOf(raw.get(0)), raw.subList(1, raw.size()));
    }

    boolean is(String s) {
        return status.equals(s);
    }

    /** Value i as text, or null when absent. */
    String text(int i) {
        Object v = i < values.size() ? values.get(i) : null;
        return v == null ? null : v.toString();
    }

    /** Value i as a number (scripts send numbers as integers or their text). */
    long number(int i) {
        Object v = values.get(i);
        return v instanceof Long l ? l : Long.parseLong(v.toString());
    }

    /** Value i as a list of texts (a nested reply). */
    @SuppressWarnings("unchecked")
    List<String> list(int i) {
        Object v = values.get(i);
        return v == null ? List.of() : ((List<Object>) v).stream().map(o -> o == null ? null : o.toString()).toList();
    }
}
