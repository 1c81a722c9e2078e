package dev.threadline.bench.server;

import java.util.List;

/**
 * What the load runs drive: sessions and turns of one system, either {@code threadline serve} over
 * HTTP ({@link HttpTurns}) or the same runtime through the Java API in this JVM ({@link InProcessTurns}).
 * Thread-safe.
 */
interface Turns extends AutoCloseable {
    /** The name used in the results ("HTTP", "in-process"). */
    String name();

    /** Creates sessions {@code ids} (empty, the default config: the scripted model). */
    void create(List<String> ids) throws Exception;

    /**
     * Runs one turn of {@code text} on {@code id} and checks that it completed with at least one tool
     * call.
     *
     * @throws OpenLoop.Failure when it did not (the kind says how)
     */
    void turn(String id, String text) throws Exception;

    /** The process that holds the sessions: its memory. */
    Memory memory();

    @Override
    void close() throws Exception;
}
