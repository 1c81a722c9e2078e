package dev.threadline.bench.server;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Two {@code threadline serve} nodes on one store behind what a load balancer with passive health
 * checks does: turns go round robin to the nodes still up; a turn whose node fails on the connection
 * (refused, reset, closed: an {@code I/O} failure) marks that node down and is sent once more, with the
 * same {@code Idempotency-Key}, to the other node. Every turn carries a key made of its session and its
 * text, so a retry of a turn the dead node had already written returns that turn and appends nothing.
 * Thread-safe.
 */
final class NodePair implements Turns {
    private final List<HttpTurns> nodes;
    private final AtomicReferenceArray<Boolean> down = new AtomicReferenceArray<>(new Boolean[] {false, false});
    private final AtomicLong next = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();

    NodePair(HttpTurns first, HttpTurns second) {
        this.nodes = List.of(first, second);
    }

    @Override
    public String name() {
        return "two-nodes"; // also a prefix of session ids
    }

    @Override
    public void create(List<String> ids) throws Exception {
        up().create(ids);
    }

    @Override
    public void turn(String id, String text) throws Exception {
        int i = (int) (next.getAndIncrement() & 1);
        if (down.get(i)) {
            i = 1 - i;
        }
        String key = id + ":" + text;
        try {
            nodes.get(i).turn(id, text, key);
        } catch (OpenLoop.Failure f) {
            if (!f.kind.startsWith("I/O") || down.get(1 - i)) {
                throw f;
            }
            down.set(i, true);
            retries.incrementAndGet();
            nodes.get(1 - i).turn(id, text, key);
        }
    }

    /** Turns that failed on their node's connection and were sent again to the other node. */
    long retries() {
        return retries.get();
    }

    /** Whether node {@code i} (0 or 1) has been marked down. */
    boolean isDown(int i) {
        return down.get(i);
    }

    private HttpTurns up() {
        return down.get(0) ? nodes.get(1) : nodes.get(0);
    }

    @Override
    public Memory memory() {
        return up().memory();
    }

    @Override
    public void close() {
        nodes.forEach(HttpTurns::close);
    }
}
