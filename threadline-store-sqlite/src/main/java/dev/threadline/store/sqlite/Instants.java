package dev.threadline.store.sqlite;

import dev.threadline.core.internal.store.EpochNanos;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Parses the event {@code time} column. It holds {@link Instant#toString()} text, almost always in the
 * form {@code 2026-11-30T07:17:13.464123456Z}; that form is parsed by hand (about ten times faster than
 * {@link Instant#parse}, which a load of 10,000 events would otherwise spend a noticeable share of
 * its time in), anything else by {@link Instant#parse}.
 */
final class Instants {
    private Instants() {}

    /**
     * Registers {@code threadline_nanos(text)} on {@code c}: the version 4 time text as {@link EpochNanos#of epoch nanoseconds}, for
     * the upgrade to version 5; a text it cannot parse fails the statement (and so the upgrade) naming it.
     */
    static void registerNanosFunction(Connection c) throws SQLException {
        org.sqlite.Function.create(c.unwrap(org.sqlite.SQLiteConnection.class), "threadline_nanos", new org.sqlite.Function() {
            @Override
            protected void xFunc() throws SQLException {
                String text = value_text(0);
                try {
                    result(EpochNanos.of(parse(text)));
                } catch (RuntimeException e) {
                    throw new SQLException("event time '" + text + "' is not an instant (" + e.getMessage() + ")");
                }
            }
        }, 1, org.sqlite.Function.FLAG_DETERMINISTIC);
    }

    static Instant parse(String s) {
        int n = s.length();
        if (n < 20 || n > 30 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
                || s.charAt(16) != ':' || s.charAt(n - 1) != 'Z') {
            return Instant.parse(s);
        }
        int nanos = 0;
        if (n > 20) {
            if (s.charAt(19) != '.' || n == 21) {
                return Instant.parse(s);
            }
            for (int i = 20; i < 29; i++) {
                int d = i < n - 1 ? digit(s, i) : 0;
                if (d < 0) {
                    return Instant.parse(s);
                }
                nanos = nanos * 10 + d;
            }
        }
        int year = number(s, 0, 4);
        int month = number(s, 5, 7);
        int day = number(s, 8, 10);
        int hour = number(s, 11, 13);
        int minute = number(s, 14, 16);
        int second = number(s, 17, 19);
        if ((year | month | day | hour | minute | second) < 0) {
            return Instant.parse(s);
        }
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second, nanos).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            return Instant.parse(s); // out-of-range fields: let the standard parser name the problem
        }
    }

    /** The decimal number in {@code s[from, to)}, or -1 if a character is not a digit. */
    private static int number(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            int d = digit(s, i);
            if (d < 0) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static int digit(String s, int i) {
        char c = s.charAt(i);
        return c >= '0' && c <= '9' ? c - '0' : -1;
    }
}
