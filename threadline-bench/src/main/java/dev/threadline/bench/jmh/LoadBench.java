package dev.threadline.bench.jmh;

import dev.threadline.core.runtime.StateManager;
import dev.threadline.core.state.State;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;

import org.openjdk.jmh.annotations.TearDown;

/**
 * Loading a session's state into an empty cache (a fresh StateManager): replaying its journal from
 * the store, in memory and from SQLite. The store is written without snapshots, so this is the full fold.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@org.openjdk.jmh.annotations.State(Scope.Thread)
public class LoadBench {
    @Param({"memory", "sqlite"})
    String store;

    @Param({"100", "10000"})
    int history;

    private StoreFixture fixture;

    @Setup
    public void setUp() throws Exception {
        fixture = new StoreFixture(store, "s", history);
    }

    @TearDown
    public void tearDown() throws Exception {
        fixture.close();
    }

    @Benchmark
    public State loadState() {
        return new StateManager(fixture.store, Clock.systemUTC(), 100, 16).get("s");
    }
}
