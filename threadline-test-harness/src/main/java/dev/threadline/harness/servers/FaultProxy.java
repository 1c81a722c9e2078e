package dev.threadline.harness.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy on 127.0.0.1 (ephemeral port) in front of one {@code host:port}, whose behaviour the test
 * switches at any time: the network between a process and its database, made faulty on demand.
 * <ul>
 *   <li>{@link Mode#PASS}: bytes go through as they come.</li>
 *   <li>{@link Mode#DELAY}: each chunk read is held {@link #delay()} before it is forwarded, both ways (a
 *       slow link: latency, not a lower throughput; order kept).</li>
 *   <li>{@link Mode#BLACKHOLE}: connections are accepted and kept, but nothing is forwarded and nothing
 *       answered (a partition: the client's reads hang until its own timeouts). What was sent meanwhile is
 *       held, as TCP would retransmit it, and goes on when the path heals; a connection accepted meanwhile
 *       reaches the target only then.</li>
 *   <li>{@link Mode#DROP}: open connections are closed (FIN, both sides) and new ones closed at once.</li>
 *   <li>{@link Mode#RESET}: open connections are reset (RST: linger 0, then close, both sides) and new ones
 *       too.</li>
 * </ul>
 * Bounded: at most {@link #MAX_CONNECTIONS} connections at once (more are closed at once), and at most
 * {@link #MAX_HELD_CHUNKS} chunks of {@link #CHUNK} bytes held per direction (then the proxy stops reading:
 * the sender's kernel buffers fill, as on a real link). {@link #close()} closes the listening socket and
 * every connection. Thread-safe: each connection is served by virtual threads of its own.
 */
public final class FaultProxy implements AutoCloseable {
    /** What the proxy does with connections and their bytes now (see the class comment). */
    public enum Mode {
        /** Forward as they come. */
        PASS,
        /** Hold each chunk {@link FaultProxy#delay()} before forwarding it. */
        DELAY,
        /** Keep connections, forward and answer nothing. */
        BLACKHOLE,
        /** Close open and new connections (FIN). */
        DROP,
        /** Reset open and new connections (RST). */
        RESET
    }

    /** The most connections served at once. */
    public static final int MAX_CONNECTIONS = 256;
    /** The most chunks held per direction of one connection. */
    public static final int MAX_HELD_CHUNKS = 64;
    /** The largest chunk read at once, in bytes. */
    public static final int CHUNK = 16 * 1024;

    private final String host;
    private final int port;
    private final ServerSocket server;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final AtomicLong accepted = new AtomicLong();
    private volatile Mode mode = Mode.PASS;
    private volatile long delayNanos;
    private volatile boolean closed;

    private FaultProxy(String host, int port) throws IOException {
        this.host = host;
        this.port = port;
        this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("fault-proxy-accept-" + server.getLocalPort()).start(this::acceptLoop);
    }

    /**
     * Starts a proxy in {@link Mode#PASS} in front of {@code host:port}.
     *
     * @throws IllegalArgumentException when {@code host} is blank or {@code port} is not 1-65535
     * @throws UncheckedIOException     when no loopback port can be bound
     */
    public static FaultProxy start(String host, int port) {
        if (host == null || host.isBlank() || port < 1 || port > 65_535) {
            throw new IllegalArgumentException("target must be host:port with a port 1-65535, was " + host + ":" + port);
        }
        try {
            return new FaultProxy(host, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on a loopback port", e);
        }
    }

    /** The port clients connect to (on 127.0.0.1). */
    public int port() {
        return server.getLocalPort();
    }

    /** The mode now. */
    public Mode mode() {
        return mode;
    }

    /** How long each chunk is held in {@link Mode#DELAY}. */
    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /** Connections accepted so far. */
    public long accepted() {
        return accepted.get();
    }

    /** Connections open now (accepted and not yet closed). */
    public int open() {
        return links.size();
    }

    /** Forwards as bytes come (heals every other mode; held bytes go on at once). */
    public void pass() {
        set(Mode.PASS, 0);
    }

    /**
     * Holds each chunk {@code d} before forwarding it, both ways.
     *
     * @throws IllegalArgumentException when {@code d} is negative or longer than a minute
     */
    public void delay(Duration d) {
        if (d.isNegative() || d.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("delay must be 0 to 1 min, was " + d);
        }
        set(Mode.DELAY, d.toNanos());
    }

    /** Keeps connections but forwards and answers nothing until another mode is set. */
    public void blackhole() {
        set(Mode.BLACKHOLE, 0);
    }

    /** Closes every open connection (FIN) and each new one at once, until another mode is set. */
    public void drop() {
        set(Mode.DROP, 0);
        links.forEach(l -> l.close(false));
    }

    /** Resets every open connection (RST) and each new one at once, until another mode is set. */
    public void reset() {
        set(Mode.RESET, 0);
        links.forEach(l -> l.close(true));
    }

    private void set(Mode m, long delay) {
        lock.lock();
        try {
            delayNanos = delay;
            mode = m;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            Mode m = mode;
            if (m == Mode.DROP || m == Mode.RESET || links.size() >= MAX_CONNECTIONS) {
                Link.closeQuietly(client, m == Mode.RESET);
                continue;
            }
            Link link = new Link(client);
            links.add(link);
            if (closed) {
                link.close(true);
                return;
            }
            Thread.ofVirtual().name("fault-proxy-link").start(link::connect);
        }
    }

    /**
     * Waits until the mode lets a chunk read at {@code readAt} go on (not black-holed, its delay served),
     * or the link is closed; false when it is closed.
     */
    private boolean awaitForwarding(Link link, long readAt) throws InterruptedException {
        lock.lock();
        try {
            while (!closed && !link.closed) {
                Mode m = mode;
                if (m == Mode.BLACKHOLE) {
                    changed.await();
                } else if (m == Mode.DELAY && System.nanoTime() - (readAt + delayNanos) < 0) {
                    changed.awaitNanos(readAt + delayNanos - System.nanoTime());
                } else {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Waits while the mode is {@link Mode#BLACKHOLE}; the mode after it (or null once closed). */
    private Mode awaitNotBlackholed(Link link) throws InterruptedException {
        lock.lock();
        try {
            while (!closed && !link.closed && mode == Mode.BLACKHOLE) {
                changed.await();
            }
            return closed || link.closed ? null : mode;
        } finally {
            lock.unlock();
        }
    }

    private void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Closes the listening socket and every connection (reset). */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        links.forEach(l -> l.close(true));
        wakeAll();
    }

    /** Bytes read from one side ({@code null}: its end) and when. */
    private record Chunk(byte[] bytes, long readAt) {
    }

    /** One client connection and its connection to the target, with the two directions between them. */
    private final class Link {
        private final Socket client;
        private volatile Socket target;
        private final java.util.concurrent.atomic.AtomicInteger ended = new java.util.concurrent.atomic.AtomicInteger();
        private volatile boolean closed;

        Link(Socket client) {
            this.client = client;
        }

        /** Connects to the target once the mode allows it, then forwards both ways. */
        void connect() {
            try {
                Mode m = awaitNotBlackholed(this);
                if (m == null || m == Mode.DROP || m == Mode.RESET) {
                    close(m == Mode.RESET);
                    return;
                }
                Socket t = new Socket();
                t.connect(new InetSocketAddress(host, port), 10_000);
                target = t;
                if (closed) { // reset or dropped while connecting
                    closeQuietly(t, true);
                    return;
                }
                direction(client, t);
                direction(t, client);
            } catch (IOException e) {
                close(true); // the target refused: the client sees its connection reset
            } catch (InterruptedException e) {
                close(true);
                Thread.currentThread().interrupt();
            }
        }

        /** A reader and a writer thread from {@code from} to {@code to}, with a bounded queue between them. */
        private void direction(Socket from, Socket to) {
            BlockingQueue<Chunk> held = new ArrayBlockingQueue<>(MAX_HELD_CHUNKS);
            Thread.ofVirtual().name("fault-proxy-read").start(() -> {
                byte[] buf = new byte[CHUNK];
                try (InputStream in = from.getInputStream()) {
                    int n;
                    while ((n = in.read(buf)) >= 0) {
                        if (!hold(held, new Chunk(Arrays.copyOf(buf, n), System.nanoTime()))) {
                            return;
                        }
                    }
                    hold(held, new Chunk(null, System.nanoTime())); // the end: passed on as a FIN
                } catch (IOException | InterruptedException e) {
                    close(true); // the sender's side broke (or the link was closed): so does the other
                }
            });
            Thread.ofVirtual().name("fault-proxy-write").start(() -> {
                try {
                    OutputStream out = to.getOutputStream();
                    while (!closed) {
                        Chunk c = held.poll(100, TimeUnit.MILLISECONDS); // bounded: notices a closed link
                        if (c == null) {
                            continue;
                        }
                        if (!awaitForwarding(this, c.readAt())) {
                            return;
                        }
                        if (c.bytes() == null) {
                            to.shutdownOutput(); // the sender closed its side: pass the FIN on
                            if (ended.incrementAndGet() == 2) {
                                close(false);
                            }
                            return;
                        }
                        out.write(c.bytes());
                        out.flush();
                    }
                } catch (IOException | InterruptedException e) {
                    close(true);
                }
            });
        }

        /** Queues a chunk, waiting while the queue is full; false when the link closed meanwhile. */
        private boolean hold(BlockingQueue<Chunk> held, Chunk c) throws InterruptedException {
            while (!closed) {
                if (held.offer(c, 100, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
            return false;
        }

        /** Closes both sides, with RST ({@code reset}) or FIN; once. */
        void close(boolean reset) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            links.remove(this);
            closeQuietly(client, reset);
            Socket t = target;
            if (t != null) {
                closeQuietly(t, reset);
            }
            wakeAll();
        }

        static void closeQuietly(Socket s, boolean reset) {
            try {
                if (reset) {
                    s.setSoLinger(true, 0);
                }
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }
}
