package dev.threadline.bench;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.SqliteFiles;
import dev.threadline.core.testkit.Codec;
import dev.threadline.core.event.Event;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * The physical limits Threadline is compared with, on the same kind of file and durability: plain
 * JDBC with no runtime around it. {@link #insertsPerSecond}: one single-row insert per transaction,
 * each committed (so fsynced, with synchronous=FULL) before the next; {@link #readAndParseNanos}: a
 * session's event rows read from Threadline's own file with one SELECT and parsed with Jackson into
 * the same event objects.
 */
final class RawLimits {
    private RawLimits() {}

    /** Opens a fresh file for {@link #insertsPerSecond}: the events table's shape, WAL, synchronous=FULL. */
    static Connection openInsertTarget(Path file) throws Exception {
        SqliteFiles.delete(file);
        Connection c = SqliteFiles.open(file);
        SqliteFiles.exec(c, "PRAGMA wal_autocheckpoint = 1000"); // as a plain application would run
        SqliteFiles.exec(c, "CREATE TABLE raw_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL,"
                + " payload TEXT NOT NULL, PRIMARY KEY (session_id, seq))");
        return c;
    }

    /**
     * Inserts {@code n} rows shaped like journal entries (the payloads of the benchmark's events) under
     * a new session key, each in its own committed transaction; returns inserts per second.
     */
    static double insertsPerSecond(Connection c, String session, int n) throws Exception {
        String[] payloads = new String[n];
        for (int i = 0, m = 0; i < n; m++) {
            for (Event e : BenchMessage.at(m).toEvents()) {
                if (i < n) {
                    payloads[i++] = Codec.payload(e);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO raw_events (session_id, seq, payload) VALUES (?, ?, ?)")) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ps.setString(1, session);
                ps.setLong(2, i + 1);
                ps.setString(3, payloads[i]);
                ps.executeUpdate(); // autocommit: BEGIN, insert, COMMIT with fsync
            }
            return n / ((System.nanoTime() - t0) / 1e9);
        }
    }

    /**
     * Reads and parses once, as plainly as the stored form allows; returns the time in nanoseconds. Since
     * schema v6 the transcript before a session's last snapshot is in sealed segments (ADR 0028): the raw
     * read parses each segment's array, then every row that still holds its payload.
     */
    static long readAndParseNanos(Path threadlineDb, String session, long expected) throws Exception {
        long t0 = System.nanoTime(); // a fresh reader: the connection is opened inside the timing, as a cold load's is
        int n = 0;
        String sid = "(SELECT sid FROM sessions WHERE id = ?)"; // schema v5: the journal is keyed by the session's number
        try (Connection c = SqliteFiles.open(threadlineDb)) {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT first_seq, last_seq, v, payloads FROM segments WHERE sid = " + sid + " ORDER BY last_seq")) {
                ps.setString(1, session);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        n += Codec.parseSegment(session, rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getBytes(4)).size();
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT payload, v, seq FROM events WHERE sid = " + sid + " AND payload IS NOT NULL ORDER BY seq")) {
                ps.setString(1, session);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Codec.parse(session, rs.getLong(3), rs.getInt(2), rs.getString(1)); // the stored form's own parse
                        n++;
                    }
                }
            }
        }
        long nanos = System.nanoTime() - t0;
        if (n != expected) {
            throw new IllegalStateException("read " + n + " events of " + session + ", expected " + expected);
        }
        return nanos;
    }
}
