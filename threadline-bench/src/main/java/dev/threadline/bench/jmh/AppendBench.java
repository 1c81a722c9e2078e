package dev.threadline.bench.jmh;

import dev.threadline.core.store.AppendRequest;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One single-event append (expected-seq check included) on each store: in memory, and SQLite with
 * synchronous=FULL (a commit with an fsync per append, so this is the disk's sync latency plus ours).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
public class AppendBench {
    @Param({"memory", "sqlite"})
    String store;

    private StoreFixture fixture;

    @Setup
    public void setUp() throws Exception {
        fixture = new StoreFixture(store, "s", 10);
    }

    @TearDown
    public void tearDown() throws Exception {
        fixture.close();
    }

    @Benchmark
    public long appendOneMessage() {
        long seq = fixture.head + 1;
        fixture.head = fixture.store.append(AppendRequest.of(fixture.key, fixture.head, fixture.epoch, List.of(JmhEvents.userMessage("s", seq))));
        return fixture.head;
    }
}
