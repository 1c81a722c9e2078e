package dev.threadline.bench.jmh;

import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.state.State;
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
 * Loading a session's state into an empty cache: replaying its journal from the store, in memory and
 * from SQLite. The store is written without snapshots, so this is the full fold. The runtime caches
 * one session, so reading a one-event session first evicts the measured one (its load is included,
 * and is tiny).
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
    private Threadline runtime;
    private Tenant tenant;

    @Setup
    public void setUp() throws Exception {
        fixture = new StoreFixture(store, "s", history);
        runtime = Threadline.builder().store(fixture.store).cacheCapacity(1).build();
        tenant = runtime.defaultTenant();
        tenant.create("evictor", SessionConfig.DEFAULT);
    }

    @TearDown
    public void tearDown() throws Exception {
        runtime.close();
    }

    @Benchmark
    public State loadState() {
        tenant.open("evictor").state();
        return tenant.open("s").state();
    }
}
