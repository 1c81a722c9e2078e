package dev.threadline.bench;

import dev.threadline.core.store.StateStore;

/**
 * A shared store under benchmark (PostgreSQL, Redis, Redis Cluster) with what the benchmark measures
 * it against: its raw floor on the same server (one connection, one plain write per operation), a
 * counter of the bytes the server has written durably, and the space a session takes. Everything the
 * benchmark writes lives in a namespace of its own (a schema, a key prefix), removed on close, as is a
 * server the benchmark started. Not thread-safe except where a method says so.
 */
interface SharedTarget extends AutoCloseable {

    /** "postgresql", "redis" or "redis-cluster". */
    String kind();

    /** The server, its version and the settings that decide durability, in one line. */
    String describe();

    /** A new Threadline store on the benchmark's namespace (a fresh pool or connection each time). */
    StateStore openStore();

    /** The pool or connection the store uses, in one line (e.g. "HikariCP pool of 10"). */
    String storeConnections();

    /**
     * Another configuration of the same store whose throughput is set beside the default's, in one line
     * (null: none). PostgreSQL: notifications off, to show what {@code pg_notify} in an append costs.
     */
    default String variant() {
        return null;
    }

    /** A new store in the {@link #variant()} configuration, on the same namespace. */
    default StateStore openVariant() {
        throw new UnsupportedOperationException("no variant");
    }

    /**
     * The benchmark's store opened with encryption at rest under {@code keys} (ADR 0049), beside {@link #openStore()}'s
     * plain one on the same server; the caller closes it.
     *
     * @throws UnsupportedOperationException when this store cannot seal yet
     */
    default StateStore openSealedStore(dev.threadline.core.crypto.KeyProvider keys) {
        throw new UnsupportedOperationException(kind() + " cannot seal payloads yet");
    }

    /** One connection for the raw floor; the caller closes it. */
    RawFloor openRawFloor() throws Exception;

    /** What {@link #writtenBytes()} counts, in one line. */
    String writtenBytesMethod();

    /**
     * A counter of the bytes the server has written durably so far (PostgreSQL: the WAL position;
     * Redis: the AOF size, summed over the masters); null when it cannot be read (e.g. AOF off).
     * Thread-safe.
     */
    Long writtenBytes() throws Exception;

    /** What {@link #heldBytes} counts, in one line. */
    String heldBytesMethod();

    /**
     * The space the session's data takes on the server (PostgreSQL: every table and index of the
     * benchmark's Threadline schema, so a delta over steps of one session is that session's growth;
     * Redis: {@code MEMORY USAGE} of the session's keys); null when it cannot be read.
     */
    Long heldBytes(String tenant, String session) throws Exception;

    /**
     * Reads one JSON document holding {@code messages} serialized, stored under {@code key} beforehand
     * with {@link RawFloor#putDocument}, on a fresh connection, and parses it; returns the messages parsed.
     */
    int readDocument(String key) throws Exception;

    @Override
    void close() throws Exception;

    /** One plain connection that writes the raw floor's operations. Not thread-safe. */
    interface RawFloor extends AutoCloseable {
        /** One durable single-row write (PostgreSQL: INSERT + COMMIT; Redis: RPUSH) of {@code payload}. */
        void write(String session, long seq, String payload) throws Exception;

        /** The space the raw floor's rows or keys take now (null when it cannot be read). */
        Long heldBytes(String session) throws Exception;

        /** Stores {@code json} as one document under {@code key} (one row, one string key). */
        void putDocument(String key, String json) throws Exception;

        @Override
        void close() throws Exception;
    }
}
