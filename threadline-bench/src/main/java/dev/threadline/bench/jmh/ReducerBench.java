package dev.threadline.bench.jmh;

import dev.threadline.core.testkit.Codec;
import dev.threadline.core.testkit.Fold;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.State;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;


/**
 * The reducer applying one message event to a session of 12 or 10,000 messages (whole turns): it must cost the same
 * (the transcript is an append-only list whose versions share one array). Each invocation applies to
 * the newest state, as the runtime does, so the session grows during an iteration.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@org.openjdk.jmh.annotations.State(Scope.Thread)
public class ReducerBench {
    @Param({"12", "10000"})
    int history;

    private State state;
    private long seq;
    private StoredEvent template;

    @Setup(Level.Iteration)
    public void setUp() {
        List<StoredEvent> journal = JmhEvents.journal("s", history);
        state = Fold.of(journal);
        seq = state.seq();
        template = JmhEvents.userMessage("s", 1);
    }

    @Benchmark
    public State applyUserMessage() {
        seq++;
        StoredEvent e = new StoredEvent("s", seq, seq, template.time(), template.commandId(), template.source(), template.event());
        state = Fold.apply(state, e);
        return state;
    }
}
