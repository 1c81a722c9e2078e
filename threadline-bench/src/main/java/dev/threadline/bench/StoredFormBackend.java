package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import dev.threadline.core.store.StateStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The database-specific half of {@link StoredFormRun}: where Threadline's store, the plain-row table
 * and the one-document table live, and how their size and their log are measured. One per run, used
 * from one thread.
 */
interface StoredFormBackend extends AutoCloseable {

    /** The backend for a store URL: {@code sqlite:PATH} or {@code postgresql://…}. */
    static StoredFormBackend of(String url) throws Exception {
        if (url.startsWith("sqlite:")) {
            return new SqliteStoredForm(StoreUrl.parse(url));
        }
        if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
            return new PostgresStoredForm(url);
        }
        throw new IllegalArgumentException("--store: stored-form measures sqlite:PATH or postgresql://…, not '" + url + "'");
    }

    /** One line: the database and its settings. */
    String describe() throws Exception;

    /** Removes Threadline's data of an earlier run. */
    void resetThreadline() throws Exception;

    /** Opens Threadline's store (again). */
    StateStore openThreadline();

    /** Bytes Threadline's tables take now, as the database counts them. */
    long threadlineBytes() throws Exception;

    /** Removes the plain-row and document tables of an earlier run and creates them empty. */
    void resetPlain() throws Exception;

    /** Bytes the plain-row table takes now. */
    long plainBytes() throws Exception;

    /** One INSERT, committed durably. */
    void insertPlain(String session, long seq, String text) throws Exception;

    /** Ends the plain-row part. */
    void closePlain() throws Exception;

    /** Starts measuring the log written for Threadline's (true) or the plain table's (false) steps. */
    long logMark(boolean threadline) throws Exception;

    /** Log bytes written since {@code mark}. */
    long logSince(boolean threadline, long mark) throws Exception;

    /** Stores the one JSON document of the session. */
    void writeDocument(String session, String json) throws Exception;

    /** A new connection to where the document is. */
    Connection documentConnection() throws Exception;

    /** The statement that reads the document; its one parameter is the session. */
    String documentSql();

    /** Reads the document back on a new connection. */
    default String readDocument(String session) throws Exception {
        try (Connection c = documentConnection()) {
            return readDocument(c, session);
        }
    }

    /** A reader of the document on one connection that stays open until it is closed. */
    default DocumentReader documentReader() throws Exception {
        Connection c = documentConnection();
        return new DocumentReader() {
            @Override
            public String read(String session) throws Exception {
                return readDocument(c, session);
            }

            @Override
            public void close() throws SQLException {
                c.close();
            }
        };
    }

    /** The document of {@code session}, read on {@code c}. */
    private String readDocument(Connection c, String session) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(documentSql())) {
            ps.setString(1, session);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no document of session " + session);
                }
                return rs.getString(1);
            }
        }
    }

    /** Reads the document on its connection; one thread at a time. */
    interface DocumentReader extends AutoCloseable {
        /** The document of {@code session}. */
        String read(String session) throws Exception;

        @Override
        void close() throws Exception;
    }

    /** Whether this is SQLite, the one backend whose log per step has a target (issue 9 item 8). */
    boolean sqlite();

    @Override
    void close() throws Exception;
}
