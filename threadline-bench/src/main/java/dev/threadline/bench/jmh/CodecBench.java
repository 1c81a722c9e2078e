package dev.threadline.bench.jmh;

import dev.threadline.bench.BenchMessage;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.json.RecordCodec;
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
        userJson = RecordCodec.encodeEvent(user);
        toolCallJson = RecordCodec.encodeEvent(toolCall);
    }

    @Benchmark
    public String encodeUserMessage() {
        return RecordCodec.encodeEvent(user);
    }

    @Benchmark
    public String encodeToolCall() {
        return RecordCodec.encodeEvent(toolCall);
    }

    @Benchmark
    public Event decodeUserMessage() {
        return RecordCodec.decodeEvent("s", 2, RecordCodec.VERSION, userJson);
    }

    @Benchmark
    public Event decodeToolCall() {
        return RecordCodec.decodeEvent("s", 3, RecordCodec.VERSION, toolCallJson);
    }
}
