package dev.threadline.store.postgres;

import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Group commit for ordinary steps (ADR 0029): the one-statement appends of different sessions that
 * arrive while others are being written go to the database together, in one transaction and one
 * commit, instead of one commit each. Each step keeps its own statement, so its fencing check and
 * compare-and-set are exactly those of a step alone; the transaction only makes their commit one.
 *
 * <p>The batch's statements are pipelined: those of one text (steps of the same number of events) go to
 * the server as one JDBC batch, sent together, so a batch of 40 steps costs a few round trips rather
 * than 40.
 *
 * <p>Leader and followers, no timer: a step that finds fewer than {@code maxLeaders} batches in flight
 * writes itself at once (alone, in auto-commit, as before), taking with it whatever steps are waiting;
 * steps that arrive meanwhile wait for the next batch. So a lone session pays nothing, and many
 * sessions share commits. Outcomes:
 * <ul>
 *   <li>the batch commits: each step learns whether its head moved (false: the caller diagnoses a
 *       stale epoch or a moved head, as for a step alone);</li>
 *   <li>a statement fails before the commit (a constraint, a deadlock past its retries): nothing of the
 *       batch is applied, and each step is written again alone, so one bad step fails alone;</li>
 *   <li>the connection breaks at the commit: every step of the batch gets that error, whose message
 *       says the write may or may not be applied (never a silent retry); a commit the server refuses
 *       (a serialization failure) applied nothing, and each step is written again alone.</li>
 * </ul>
 * Steps are written in session order, so two processes' batches take row locks in one order. The
 * sessions a commit moved are handed to the store's notifier together, once per commit, so that a
 * batch's followers are told in one send rather than one each.
 *
 * <p>No step is left waiting: a step is queued before its thread looks at the leader count, and a
 * leader looks at the queue after lowering the count (both sequentially consistent), so either the
 * step's thread sees room and leads, or the leaving leader sees the step and wakes the first waiting
 * thread to lead. Thread-safe.
 */
final class StepBatcher {
    /**
     * One step's statement: its text, the update count that means its head moved, and its parameters.
     * Steps of one text are sent to the server together (a JDBC batch: one round trip for all of them).
     */
    interface Step {
        String sql();

        /** The update count of a step whose head moved (its events are in); any other count means it did not. */
        int expected();

        void bind(PreparedStatement ps) throws SQLException;

        /** Runs the statement alone on {@code c}; true when the head moved. */
        default boolean run(Connection c) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(sql())) {
                bind(ps);
                return ps.executeUpdate() == expected();
            }
        }
    }

    private static final class Pending {
        final SessionKey key;
        final Supplier<String> what;
        final Step step;
        final Thread waiter;
        final CompletableFuture<Boolean> done = new CompletableFuture<>();

        Pending(SessionKey key, Supplier<String> what, Step step, Thread waiter) {
            this.key = key;
            this.what = what;
            this.step = step;
            this.waiter = waiter;
        }

        void complete(boolean moved) {
            done.complete(moved);
            wake();
        }

        void fail(Throwable t) {
            done.completeExceptionally(t);
            wake();
        }

        /**
         * Wakes the step's thread, unless it is the one writing it (a lone step): a permit it gave itself
         * would linger.
         */
        private void wake() {
            if (waiter != Thread.currentThread()) {
                LockSupport.unpark(waiter);
            }
        }
    }

    private static final Comparator<Pending> BY_SESSION = Comparator.comparing((Pending p) -> p.key.tenant())
            .thenComparing(p -> p.key.id());

    private final Db db;
    private final Consumer<List<SessionKey>> committed;
    private final int maxLeaders;
    private final int maxBatch;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger leaders = new AtomicInteger();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong batchedSteps = new AtomicLong();

    /**
     * @param maxLeaders the most batches in flight at once (each on a connection of its own)
     * @param maxBatch   the most steps in one batch
     * @param committed  told the sessions whose heads a commit moved, once per commit, after the commit and
     *                   before their callers return (the store's notifier: one send for a batch); must not throw
     */
    StepBatcher(Db db, int maxLeaders, int maxBatch, Consumer<List<SessionKey>> committed) {
        this.db = db;
        this.committed = committed;
        this.maxLeaders = maxLeaders;
        this.maxBatch = maxBatch;
    }

    /**
     * Writes one step, alone or with others; true when its head moved.
     *
     * @throws dev.threadline.core.error.StorageException as {@link Db#writeOne} does for a step alone
     */
    boolean run(SessionKey key, Supplier<String> what, Step step) {
        Pending mine = new Pending(key, what, step, Thread.currentThread());
        queue.add(mine);
        boolean interrupted = false;
        while (true) {
            tryLead(mine);
            if (mine.done.isDone()) {
                break;
            }
            LockSupport.park(this); // until a batch completes it, or a leaving leader hands over
            interrupted |= Thread.interrupted(); // the write may be in flight: wait for its outcome all the same
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        try {
            return mine.done.join(); // done: returns or throws at once
        } catch (CompletionException e) {
            throw rethrow(e.getCause());
        }
    }

    /** How many steps wait for a batch now. */
    int queued() {
        return queue.size();
    }

    /** Batches written together and the steps they held (for tests and the docs' figures). */
    long[] counts() {
        return new long[] {batches.get(), batchedSteps.get()};
    }

    /**
     * Leads while fewer than {@code maxLeaders} do and {@code mine} is not done. A leader leaving with
     * steps still queued wakes the first one's thread to lead them: so no step waits on a leader that
     * has gone, and no caller leads other sessions' steps for longer than it takes to write its own.
     */
    private void tryLead(Pending mine) {
        while (!mine.done.isDone() && !queue.isEmpty()) {
            int n = leaders.get();
            if (n >= maxLeaders) {
                return; // a leader in flight will write it, or wake it when it leaves
            }
            if (!leaders.compareAndSet(n, n + 1)) {
                continue;
            }
            try {
                leadUntil(mine);
            } finally {
                leaders.decrementAndGet();
            }
            Pending next = queue.peek(); // read after the count went down (see the class comment)
            if (next != null) {
                LockSupport.unpark(next.waiter);
            }
        }
    }

    /** Writes queued steps, batch after batch, until {@code mine} is done or nothing is queued. */
    private void leadUntil(Pending mine) {
        while (!mine.done.isDone()) {
            List<Pending> batch = new ArrayList<>();
            for (Pending p; batch.size() < maxBatch && (p = queue.poll()) != null; ) {
                batch.add(p);
            }
            if (batch.isEmpty()) {
                return;
            }
            if (batch.size() == 1) {
                alone(batch.get(0));
            } else {
                together(batch);
            }
        }
    }

    private void alone(Pending p) {
        boolean moved;
        try {
            moved = db.writeOne(p.what, p.step::run);
        } catch (RuntimeException | Error e) {
            p.fail(e);
            return;
        }
        if (moved) {
            committed.accept(List.of(p.key));
        }
        p.complete(moved);
    }

    private void together(List<Pending> batch) {
        batch.sort(BY_SESSION);
        boolean[] moved = new boolean[batch.size()];
        boolean[] ran = {false};
        try {
            db.write(() -> "append " + batch.size() + " steps together (first: " + batch.get(0).what.get() + ")", c -> {
                ran[0] = false;
                pipelined(c, batch, moved);
                ran[0] = true; // every statement ran: what fails now is the commit
                return null;
            });
        } catch (RuntimeException e) {
            if (ran[0] && Db.unavailable(e)) {
                for (Pending p : batch) { // the connection broke at the commit: applied or not, the error says so, for all
                    p.fail(e);
                }
                return;
            }
            for (Pending p : batch) { // the server refused it: nothing was applied; each step again, alone, to fail alone
                alone(p);
            }
            return;
        }
        batches.incrementAndGet();
        batchedSteps.addAndGet(batch.size());
        List<SessionKey> keys = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            if (moved[i]) {
                keys.add(batch.get(i).key);
            }
        }
        if (!keys.isEmpty()) {
            committed.accept(keys);
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).complete(moved[i]);
        }
    }

    /**
     * Runs the batch's statements, those of one text as one JDBC batch (sent together, one round trip),
     * in session order within each text; {@code moved[i]} says whether step {@code i}'s head moved. Two
     * batches never hold one session (a session has one step in flight, in the process holding its lease),
     * so the order of texts cannot make two batches wait for each other.
     */
    private static void pipelined(Connection c, List<Pending> batch, boolean[] moved) throws SQLException {
        Map<String, List<Integer>> byText = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            byText.computeIfAbsent(batch.get(i).step.sql(), k -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<String, List<Integer>> group : byText.entrySet()) {
            try (PreparedStatement ps = c.prepareStatement(group.getKey())) {
                for (int i : group.getValue()) {
                    batch.get(i).step.bind(ps);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                for (int k = 0; k < counts.length; k++) {
                    if (counts[k] < 0) { // the driver rewrote the batch (reWriteBatchedInserts): no outcome per step
                        throw new SQLException("the driver reported no update count for a batched step (" + counts[k]
                                + "); a step's statement must not be one it rewrites", "XX000");
                    }
                    int i = group.getValue().get(k);
                    moved[i] = counts[k] == batch.get(i).step.expected();
                }
            }
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new dev.threadline.core.error.StorageException(String.valueOf(t.getMessage()), t);
    }
}
