package dev.threadline.springboot;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.LiveSessions;
import dev.threadline.core.runtime.Tenant;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Threadline's meters, named as the server names them: {@code threadline.steps} and {@code threadline.events}
 * (the steps committed in the tenant by this process and the events they held, tagged {@code tenant}),
 * {@code threadline.turns.running} and {@code threadline.commands.queued} (what the runtime has live). Thread-safe:
 * each {@link #bindTo} adds its own listener to the tenant.
 */
public final class ThreadlineMetrics implements MeterBinder {
    private final Threadline threadline;
    private final Tenant tenant;

    /** Meters for {@code tenant} of {@code threadline}. */
    public ThreadlineMetrics(Threadline threadline, Tenant tenant) {
        this.threadline = threadline;
        this.tenant = tenant;
    }

    /** Registers the meters in {@code registry} and starts counting the tenant's commits into it. */
    @Override
    public void bindTo(MeterRegistry registry) {
        Counter steps = Counter.builder("threadline.steps").description("steps committed in the tenant by this process")
                .tag("tenant", tenant.id()).register(registry);
        Counter events = Counter.builder("threadline.events").description("events those steps appended")
                .tag("tenant", tenant.id()).register(registry);
        tenant.addListener((sessionId, committed, state) -> {
            steps.increment();
            events.increment(committed.size());
        });
        LiveSessions live = threadline.live();
        Gauge.builder("threadline.turns.running", live, LiveSessions::runningTurns)
                .description("turns this process runs now").strongReference(true).register(registry);
        Gauge.builder("threadline.commands.queued", live, LiveSessions::queuedCommands)
                .description("commands waiting behind another command of their session").strongReference(true).register(registry);
    }
}
