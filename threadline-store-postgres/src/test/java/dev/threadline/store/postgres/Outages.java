package dev.threadline.store.postgres;

import dev.threadline.harness.history.HistoryLines;
import dev.threadline.harness.history.Operation;
import dev.threadline.harness.history.Outcome;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.Line;
import dev.threadline.harness.servers.PgServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server outages of {@link PostgresStoppedUnderLoadTest} and what the children saw of them: which
 * calls ran wholly inside an outage (started after the server was down, ended before it was started
 * again), and how long they took to fail. Not thread-safe (the test thread drives it).
 */
final class Outages {
    /** A call that ran wholly inside an outage. */
    record Call(String child, String commandId, long nanos) {
    }

    private final Fleet fleet;
    private final List<ChildProcess> children;
    private final List<long[]> windows = new ArrayList<>();

    Outages(Fleet fleet, List<ChildProcess> children) {
        this.fleet = fleet;
        this.children = List.copyOf(children);
    }

    /**
     * Waits until every child had a call that started after this call and was answered by the store: ok,
     * or failed because the other process holds the lease (leases are not fair, so one process may keep
     * every session while it stays busy).
     */
    void awaitAnswersOfEach(Duration wait) {
        for (ChildProcess c : children) {
            awaitCallStartedAfter(c, c.lineCount(), "a call answered by the store",
                    l -> l.startsWith(HistoryLines.END + Outcome.OK.wireName() + " ")
                            || l.startsWith(HistoryLines.END + Outcome.FAILED.wireName() + " "), wait);
        }
    }

    /**
     * Stops the server (fast shutdown), waits until each child has had a call start and fail while it
     * is down, and starts it again.
     */
    void stopServerUntilEachChildFailedACall(PgServer server, Duration wait) {
        server.stop();
        long downFrom = System.nanoTime();
        for (ChildProcess c : children) {
            awaitCallStartedAfter(c, c.lineCount(), "a call that fails while the server is down",
                    l -> l.startsWith(HistoryLines.END + Outcome.UNKNOWN.wireName() + " "), wait);
        }
        windows.add(new long[] {downFrom, System.nanoTime()});
        server.start();
    }

    /** Waits for an END line that matches, of a call whose START line is at index {@code from} or later. */
    private static void awaitCallStartedAfter(ChildProcess c, int from, String what, java.util.function.Predicate<String> end,
                                              Duration wait) {
        int at = from;
        while (true) {
            Line l = c.awaitLine(at, what, end, wait);
            String cid = l.text().split(" ")[3];
            if (c.lines().subList(from, l.index()).stream()
                    .anyMatch(s -> s.text().startsWith(HistoryLines.START) && s.text().split(" ")[2].equals(cid))) {
                return;
            }
            at = l.index() + 1;
        }
    }

    /** The calls of every child that started and ended inside an outage. */
    List<Call> failedInOutage() {
        List<Call> out = new ArrayList<>();
        for (ChildProcess c : children) {
            Map<String, Long> started = new HashMap<>();
            for (Line l : c.lines()) {
                String[] p = l.text().split(" ");
                if (l.text().startsWith(HistoryLines.START)) {
                    started.put(p[2], l.receivedNanos());
                } else if (l.text().startsWith(HistoryLines.END)) {
                    Long s = started.remove(p[3]);
                    if (s != null && inside(s, l.receivedNanos())) {
                        out.add(new Call(c.name(), p[3], l.receivedNanos() - s));
                    }
                }
            }
        }
        return out;
    }

    private boolean inside(long start, long end) {
        return windows.stream().anyMatch(w -> start >= w[0] && end <= w[1]);
    }

    /** The longest of those calls. */
    Duration slowestFailure() {
        return Duration.ofNanos(failedInOutage().stream().mapToLong(Call::nanos).max().orElse(0));
    }

    /**
     * The operations with those calls judged failed: while the server was down for the whole of a call,
     * nothing it did can have been written, so the journal must hold no trace of it.
     */
    List<Operation> judged(List<Operation> ops) {
        Set<String> failed = new HashSet<>();
        failedInOutage().forEach(c -> failed.add(c.child() + " " + c.commandId()));
        return ops.stream().map(op -> failed.contains(op.process() + " " + op.commandId())
                ? new Operation(op.session(), op.commandId(), op.text(), Outcome.FAILED, op.process()) : op).toList();
    }

    /** One line of what happened. */
    String report() {
        List<Call> calls = failedInOutage();
        long downMs = windows.stream().mapToLong(w -> (w[1] - w[0]) / 1_000_000).sum();
        return String.format("postgres stopped under load: %d outages (%d ms down in all); %d calls started and failed"
                        + " while it was down, slowest %d ms, mean %d ms; operations ok=%d failed=%d unknown=%d",
                windows.size(), downMs, calls.size(), slowestFailure().toMillis(),
                calls.isEmpty() ? 0 : calls.stream().mapToLong(Call::nanos).sum() / calls.size() / 1_000_000,
                fleet.history.count(Outcome.OK), fleet.history.count(Outcome.FAILED), fleet.history.count(Outcome.UNKNOWN));
    }
}
