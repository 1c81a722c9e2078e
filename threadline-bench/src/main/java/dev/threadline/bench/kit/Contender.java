package dev.threadline.bench.kit;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One way of keeping an agent's conversation that the benchmark drives with the same messages:
 * Threadline itself, or a library a Java user would pick instead. Each method does what that library
 * does for the work, through its documented API.
 */
public interface Contender extends AutoCloseable {

    /** Short name for tables and plots. */
    String name();

    /** What an acknowledged step survives, in one line. */
    String durability();

    /** The parts of the work this library cannot do, each a sentence (empty when it does all). */
    List<String> cannot();

    /** Writes a session's history so far (stored exactly as if it had arrived step by step). */
    void prefill(String session, List<BenchMessage> history) throws Exception;

    /** One durable step: records one more message of the session. */
    void step(String session, BenchMessage message) throws Exception;

    /** The SQLite file whose write-ahead log growth is measured; empty when nothing is written to disk. */
    Optional<Path> database();

    /**
     * Loads the session as a fresh process would (new runtime, new connections) and returns how many
     * messages it holds; empty when the library has no such notion (nothing outside the process).
     */
    OptionalInt coldLoad(String session) throws Exception;

    /**
     * How many messages {@link #coldLoad} gives back for a conversation of the first {@code messages} benchmark
     * messages: all of them, unless the contender's store drops some kinds.
     */
    default int loadable(int messages) {
        return messages;
    }

    /** The objects this library holds in memory for the session (measured with JOL). */
    Object heldInMemory(String session) throws Exception;

    /** The size of the session's messages in this library's own serialized form, in bytes. */
    long serializedBytes(String session) throws Exception;

    @Override
    void close() throws Exception;
}
