package dev.threadline.bench.jmh;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.core.testkit.Codec;
import dev.threadline.core.testkit.Fold;
import dev.threadline.core.event.Event;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Event serialization: encoding and decoding (with the version check) of a user message and a tool call. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class CodecBench {
    private Event user;
    private Event toolCall;
    private String userJson;
    private String toolCallJson;

    @Setup
    public void setUp() {
        user = BenchMessage.at(0).toEvents().get(0);
        toolCall = BenchMessage.at(1).toEvents().get(0);
        userJson = Codec.payload(user);
        toolCallJson = Codec.payload(toolCall);
    }

    @Benchmark
    public String encodeUserMessage() {
        return Codec.payload(user);
    }

    @Benchmark
    public String encodeToolCall() {
        return Codec.payload(toolCall);
    }

    @Benchmark
    public Event decodeUserMessage() {
        return Codec.parse("s", 2, Codec.VERSION, userJson);
    }

    @Benchmark
    public Event decodeToolCall() {
        return Codec.parse("s", 3, Codec.VERSION, toolCallJson);
    }
}
