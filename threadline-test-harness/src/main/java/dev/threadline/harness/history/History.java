package dev.threadline.harness.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The record of every client operation of a test, in one or many processes. Operations are added
 * whole ({@link #record}) or in two halves, as a call starts and as it ends ({@link #started},
 * {@link #ended}); the calls of a process that died are closed as {@link Outcome#UNKNOWN} by
 * {@link #abandon}. Lines of the {@link HistoryLines} protocol are fed with {@link #accept}.
 * Thread-safe.
 */
public final class History {
    private final List<Operation> done = new ArrayList<>();
    /** Calls in flight by process and command id; one process may run several attempts of one id at once. */
    private final Map<String, Deque<Operation>> inFlight = new LinkedHashMap<>();

    /** Adds a finished operation. */
    public synchronized void record(Operation op) {
        done.add(op);
    }

    /**
     * Notes that {@code process} is about to submit {@code text} to {@code session} under {@code commandId}.
     * A process may start the same command id again before the first attempt ended; each {@link #ended}
     * closes the oldest attempt still open.
     */
    public synchronized void started(String process, String session, String commandId, String text) {
        Operation op = new Operation(session, commandId, text, Outcome.UNKNOWN, process);
        inFlight.computeIfAbsent(key(process, commandId), k -> new ArrayDeque<>()).addLast(op);
    }

    /**
     * Closes the call {@code process} started under {@code commandId} with {@code outcome}.
     *
     * @throws IllegalStateException when no such call is in flight
     */
    public synchronized void ended(String process, String commandId, Outcome outcome) {
        String key = key(process, commandId);
        Deque<Operation> open = inFlight.get(key);
        if (open == null) {
            throw new IllegalStateException(process + " ended command " + commandId + " that it never started");
        }
        Operation op = open.removeFirst();
        if (open.isEmpty()) {
            inFlight.remove(key);
        }
        done.add(new Operation(op.session(), op.commandId(), op.text(), outcome, process));
    }

    /**
     * Closes every call {@code process} has in flight as {@link Outcome#UNKNOWN}: use it once the process
     * was killed (its calls may or may not have taken effect).
     *
     * @return the calls closed (e.g. to retry them under the same command ids)
     */
    public synchronized List<Operation> abandon(String process) {
        List<Operation> closed = new ArrayList<>();
        for (var it = inFlight.entrySet().iterator(); it.hasNext(); ) {
            Deque<Operation> open = it.next().getValue();
            if (open.peekFirst().process().equals(process)) {
                closed.addAll(open);
                it.remove();
            }
        }
        done.addAll(closed);
        return List.copyOf(closed);
    }

    /**
     * Feeds one output line of {@code process}: {@link HistoryLines} lines are recorded, others ignored.
     *
     * @return whether the line was one of the protocol's
     * @throws IllegalArgumentException when a protocol line is malformed
     */
    public boolean accept(String process, String line) {
        if (line.startsWith(HistoryLines.START)) {
            String[] p = line.split(" ", 4);
            require(p.length == 4, line);
            started(process, p[1], p[2], p[3]);
            return true;
        }
        if (line.startsWith(HistoryLines.END)) {
            String[] p = line.split(" ");
            require(p.length == 4, line);
            ended(process, p[3], Outcome.fromWire(p[1]));
            return true;
        }
        return false;
    }

    /** The finished operations so far (calls still in flight are not included), in the order they ended. */
    public synchronized List<Operation> operations() {
        return List.copyOf(done);
    }

    /** How many finished operations have {@code outcome}. */
    public synchronized long count(Outcome outcome) {
        return done.stream().filter(o -> o.outcome() == outcome).count();
    }

    /** How many calls are still in flight. */
    public synchronized int inFlight() {
        return inFlight.values().stream().mapToInt(Deque::size).sum();
    }

    private static String key(String process, String commandId) {
        return process + "\u0000" + commandId;
    }

    private static void require(boolean ok, String line) {
        if (!ok) {
            throw new IllegalArgumentException("malformed history line: " + line);
        }
    }
}
