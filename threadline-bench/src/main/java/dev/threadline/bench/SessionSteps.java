package dev.threadline.bench;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.testkit.RawSteps;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How the shared-store run ({@link SharedRun}) writes the benchmark's conversation to a Threadline
 * session: a prefill in steps of 100 messages, then one message per step, each through the session's
 * command gate ({@code RawSteps.update}: mailbox, lease, compare-and-set fenced append, commit), counting
 * the steps decided again after a conflict on a state that already held their message; and the raw
 * floor's payloads of the same events. {@link StepParts} uses the prefill, the events and the payloads.
 * Thread-safe.
 */
final class SessionSteps {
    private final AtomicLong redecided = new AtomicLong();

    /** The steps that found their message there on a second decision (see {@link SharedResults.Store#redecidedAfterCommit}). */
    long redecided() {
        return redecided.get();
    }

    /**
     * One step recording message {@code index} of the session, decided from the state as an agent loop
     * decides: when the store reported a conflict and the step is decided again on a state that already
     * holds the message (the first attempt was committed after all), it writes nothing and is counted
     * ({@link #redecided()}). A first decision that finds the message there already means something else
     * wrote to the session (as the runtime's own take-over once did, closing the running turn of a session
     * that had sat idle past the lease linger): the run stops saying so instead of counting it.
     */
    void step(Session s, long index) {
        step(s, index, BenchMessage.at(index).toEvents());
    }

    /** {@link #step(Session, long)} with message {@code index}'s events made beforehand. */
    void step(Session s, long index, List<Event> events) {
        int[] decisions = {0};
        RawSteps.update(s, state -> {
            decisions[0]++;
            if (state.messages().size() > index) {
                if (decisions[0] == 1) {
                    throw new IllegalStateException("session '" + s.id() + "' holds " + state.messages().size()
                            + " messages before step " + index + " recorded its message: something else wrote to it (status "
                            + state.status().wireName() + ", seq " + state.seq() + ")");
                }
                redecided.incrementAndGet();
                return List.of();
            }
            return events;
        });
    }

    /** A new session of {@code length} messages, written in steps of 100 messages; {@code afterEach} runs after each. */
    static Session prefill(Threadline tl, String id, int length, Runnable afterEach) {
        Session s = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
        for (int from = 0; from < length; from += 100) {
            List<Event> batch = new ArrayList<>();
            for (BenchMessage m : BenchMessage.range(from, Math.min(length, from + 100))) {
                batch.addAll(m.toEvents());
            }
            RawSteps.update(s, state -> batch);
            afterEach.run();
        }
        return s;
    }

    /** The events of messages {@code from .. from + n - 1}, one list per step, made before a timed run of steps. */
    static List<List<Event>> decided(long from, int n) {
        List<List<Event>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(BenchMessage.at(from + i).toEvents());
        }
        return out;
    }

    /** The JSON of the benchmark's events, one per raw write, in the order the conversation writes them. */
    static List<String> payloads(int n) throws Exception {
        List<String> out = new ArrayList<>(n);
        for (long m = 0; out.size() < n; m++) {
            for (Event e : BenchMessage.at(m).toEvents()) {
                if (out.size() < n) {
                    out.add(Json.mapper().writerFor(Event.class).writeValueAsString(e));
                }
            }
        }
        return out;
    }
}
