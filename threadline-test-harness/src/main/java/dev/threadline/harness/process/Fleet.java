package dev.threadline.harness.process;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.history.History;
import dev.threadline.harness.history.Operation;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.Line;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The child JVMs ({@link ClientChild}, {@link ReaderChild}) of one multi-process test on one shared
 * store, named by its URL (any backend {@link StateStores#open} knows): each child's protocol lines feed
 * one {@link History}, and its {@code ACK} lines one queue (so the test can wait for the next step of any
 * child). Closing kills every child still running and keeps each one's stdout beside its stderr in the
 * test's directory. Thread-safe.
 */
public final class Fleet implements AutoCloseable {
    /**
     * An {@code ACK} line and the child that printed it.
     *
     * @param child         the incarnation that committed the step, e.g. {@code A#2}
     * @param session       the session it appended to
     * @param seq           the step's last seq
     * @param started       whether the step started tool calls (the child is then mid-turn on the session)
     * @param receivedNanos when this JVM read the line ({@link System#nanoTime()})
     */
    public record Ack(String child, String session, long seq, boolean started, long receivedNanos) {
    }

    /** Every client operation the children reported. */
    public final History history = new History();
    /** Appends refused by fencing ({@code LOST} lines), over every incarnation. */
    public final java.util.concurrent.atomic.AtomicInteger fenced = new java.util.concurrent.atomic.AtomicInteger();
    /** Calls that ended with an exception other than lease held / lease lost ({@code ERR} lines), with the child. */
    public final List<String> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Branches the children's mixers made ({@code BRANCH} lines), by branch id. */
    public final Map<String, dev.threadline.harness.history.HistoryChecker.Branch> branches = new java.util.concurrent.ConcurrentHashMap<>();
    /** Every mixer operation's kind and outcome ({@code MIX <op> <outcome>}), e.g. {@code fork ok}, {@code compact failed}. */
    public final List<String> mixes = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final BlockingQueue<Ack> acks = new LinkedBlockingQueue<>();
    private final List<ChildProcess> children = new ArrayList<>();
    private final Path dir;
    private final String url;
    private final UnaryOperator<String> childUrl;
    private StateStore store;

    /** A fleet whose children all open {@code url}; their logs go to {@code dir}. */
    public Fleet(Path dir, String url) {
        this(dir, url, name -> url);
    }

    /**
     * A fleet whose children open the store {@code childUrl} gives for their incarnation's name (e.g. the
     * same database with the name as the connection's application name); this JVM reads {@code url}.
     */
    public Fleet(Path dir, String url, UnaryOperator<String> childUrl) {
        this.dir = dir;
        this.url = url;
        this.childUrl = childUrl;
    }

    /** This JVM's own store on the fleet's URL (to watch leases), opened on first use and closed with the fleet. */
    public synchronized StateStore store() {
        if (store == null) {
            store = StateStores.open(url);
        }
        return store;
    }

    /** The store's URL. */
    public String url() {
        return url;
    }

    /** Starts a child incarnation named {@code name} and waits for its READY line. */
    public ChildProcess start(String name, Class<?> main, Map<String, ?> args) {
        ChildProcess c = launch(name, main, args);
        awaitReady(c);
        return c;
    }

    /** Waits (bounded) for a child's READY line; returns at once when it came already. */
    public static void awaitReady(ChildProcess c) {
        c.awaitPrefix("READY", Duration.ofSeconds(60));
    }

    /** Starts a child incarnation named {@code name} without waiting for it (stdin lines sent meanwhile wait in the pipe). */
    public ChildProcess launch(String name, Class<?> main, Map<String, ?> args) {
        return launch(name, main, args, List.of());
    }

    /** As {@link #launch(String, Class, Map)}, with more JVM options (e.g. {@code -Dthreadline.crashAt=...}). */
    public ChildProcess launch(String name, Class<?> main, Map<String, ?> args, List<String> jvmOptions) {
        Map<String, Object> all = new LinkedHashMap<>(args);
        all.put("store", childUrl.apply(name));
        all.put("name", name);
        ChildProcess c = ChildProcess.of(main).name(name).args(ChildArgs.of(all)).jvmOptions(jvmOptions.toArray(String[]::new))
                .stderr(dir.resolve(name.replace('#', '-') + ".err"))
                .onLine(l -> hear(name, l)).start();
        synchronized (children) {
            children.add(c);
        }
        return c;
    }

    private void hear(String child, Line l) {
        history.accept(child, l.text());
        if (l.text().startsWith("LOST ")) {
            fenced.incrementAndGet();
        } else if (l.text().startsWith("ERR ")) {
            errors.add(child + ": " + l.text());
        }
        if (l.text().startsWith("BRANCH ")) {
            String[] p = l.text().split(" ");
            branches.put(p[3], new dev.threadline.harness.history.HistoryChecker.Branch(p[1], Long.parseLong(p[2])));
        } else if (l.text().startsWith("MIX ")) {
            String[] p = l.text().split(" ");
            mixes.add(p[1] + " " + p[2]);
        }
        if (l.text().startsWith("ACK ")) {
            String[] p = l.text().split(" ");
            acks.add(new Ack(child, p[1], Long.parseLong(p[2]), Boolean.parseBoolean(p[3]), l.receivedNanos()));
        }
    }

    /** Forgets the steps heard so far: the next {@link #nextAck} call sees only later ones. */
    public void clearAcks() {
        acks.clear();
    }

    /**
     * The next step heard from any child, or null when none comes within {@code timeout}.
     *
     * @throws InterruptedException when the test's thread is interrupted while waiting
     */
    public Ack nextAck(Duration timeout) throws InterruptedException {
        return acks.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Forgets the steps heard so far and waits until the children together commit {@code n} more within
     * {@code wait}.
     *
     * @throws AssertionError naming how many came, with every child's last lines, when fewer do
     * @throws InterruptedException when the test's thread is interrupted while waiting
     */
    public void awaitSteps(int n, Duration wait) throws InterruptedException {
        clearAcks();
        long deadline = System.nanoTime() + wait.toNanos();
        for (int i = 0; i < n; i++) {
            if (nextAck(Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))) == null) {
                StringBuilder b = new StringBuilder("only " + i + " of " + n + " steps within " + wait);
                synchronized (children) {
                    children.forEach(c -> b.append('\n').append(c.describe(c.isAlive() ? "running" : "exited")));
                }
                throw new AssertionError(b.toString());
            }
        }
    }

    /**
     * Polls this JVM's store (bounded, until {@code deadlineNanos} of {@link System#nanoTime()}) until the
     * lease of {@code key} belongs to a process other than {@code from}; returns when this JVM saw it so.
     *
     * @throws AssertionError from {@code failure}, given the lease last seen, when the deadline passes
     */
    public long awaitLeaseLeaves(SessionKey key, ChildProcess from, long deadlineNanos,
                                 java.util.function.Function<Optional<Lease>, String> failure) {
        StateStore s = store();
        String mark = "/" + from.pid() + "/";
        Optional<Lease> seen = s.lease(key);
        while (System.nanoTime() < deadlineNanos) {
            long now = System.nanoTime();
            if (seen.isPresent() && !seen.get().owner().contains(mark)) {
                return now;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L); // polling the store's view of the lease, not timing the test
            seen = s.lease(key);
        }
        throw new AssertionError(from.describe(failure.apply(seen)));
    }

    /** Kills a child with SIGKILL; its calls in flight become unknown, and are returned (to retry them). */
    public List<Operation> kill(ChildProcess c) {
        c.kill(); // returns once its output is read to the end, so the history has every line it printed
        return history.abandon(c.name());
    }

    /** Asks a child to quit and waits for its DONE line and exit code 0. */
    public void quit(ChildProcess c) {
        c.send("QUIT");
        c.awaitPrefix("DONE", Duration.ofSeconds(90));
        int code = c.awaitExit(Duration.ofSeconds(30));
        if (code != 0) {
            throw new AssertionError(c.describe("exited with " + code + " after QUIT"));
        }
    }

    /** The whole journals of these sessions, read by a fresh runtime in this JVM (reads write nothing). */
    public Map<String, List<StoredEvent>> journals(String tenant, List<String> sessions) {
        Map<String, List<StoredEvent>> out = new LinkedHashMap<>();
        try (Threadline tl = Threadline.builder().store(StateStores.open(url)).model(LeaseTestModel.of("slow")).build()) {
            Tenant t = tl.tenant(tenant);
            for (String s : sessions) {
                out.put(s, t.open(s).history().journal());
            }
        }
        return out;
    }

    /** Kills every child still running and writes each one's stdout to {@code <dir>/<name>.out}, for a failed run. */
    @Override
    public void close() {
        synchronized (this) {
            if (store != null) {
                store.close();
            }
        }
        synchronized (children) {
            for (ChildProcess c : children) {
                c.close();
                try {
                    java.nio.file.Files.write(dir.resolve(c.name().replace('#', '-') + ".out"),
                            c.lines().stream().map(Line::text).toList());
                } catch (java.io.IOException e) {
                    // the directory is gone: nothing to keep
                }
            }
        }
    }
}
