package dev.threadline.harness.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One throwaway {@code redis-server} for tests, on a free loopback port, with AOF on and fsync at every
 * write unless {@code extra} says otherwise (e.g. {@code --appendfsync everysec}), a replica's first sync
 * started at once,
 * its files in a directory of its own. It can be killed with SIGKILL and started again on the same
 * directory and port. Readiness is a bounded poll of PING, never a fixed sleep. Not thread-safe.
 */
public final class RedisProcess implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(20);

    private final Path dir;
    private final int port;
    private final List<String> extra;
    private Process process;

    private RedisProcess(Path dir, int port, List<String> extra) {
        this.dir = dir;
        this.port = port;
        this.extra = List.copyOf(extra);
    }

    /** Starts a server in a new temporary directory; {@code extra} are more {@code --name value} arguments. */
    public static RedisProcess start(List<String> extra) {
        try {
            RedisProcess p = new RedisProcess(Files.createTempDirectory("threadline-redis-"), freePort(), extra);
            p.launch();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts a replica of {@code master} ({@code --replicaof}, with its own AOF) and waits until its
     * link to the master is up and the first sync is done (a bounded poll of INFO replication).
     */
    public static RedisProcess replicaOf(RedisProcess master, List<String> extra) {
        List<String> args = new ArrayList<>(List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())));
        args.addAll(extra);
        RedisProcess replica = start(args);
        try {
            replica.awaitReplicaInSync();
            master.awaitOnlineReplica(replica.port());
        } catch (RuntimeException e) {
            replica.close();
            throw e;
        }
        return replica;
    }

    /**
     * Waits until this master counts the replica on {@code replicaPort} as {@code state=online}: only then
     * does a {@code WAIT} count its acknowledgement. The replica reports its link up a moment before its master
     * marks it online (CI, stop 49: a store with replicated acks had its first create refused, "only 0 of 1
     * replicas confirmed it within 200ms", right after {@link #replicaOf} returned).
     */
    public void awaitOnlineReplica(int replicaPort) {
        waitFor(() -> info("replication").lines()
                        .anyMatch(l -> l.startsWith("slave") && l.contains(",port=" + replicaPort + ",") && l.contains("state=online")),
                "redis-server on port " + port + " to count its replica on port " + replicaPort + " as online");
    }

    /** Waits until this replica reports {@code master_link_status:up} with no sync in progress. */
    public void awaitReplicaInSync() {
        waitFor(() -> {
            String info = info("replication");
            return info.contains("master_link_status:up") && info.contains("master_sync_in_progress:0");
        }, "redis-server on port " + port + " to finish syncing with its master");
    }

    /**
     * Waits until this replica has applied everything {@code master} had written when the call began
     * (its {@code slave_repl_offset} reaches the master's {@code master_repl_offset}): a bounded poll of
     * INFO replication on both.
     */
    public void awaitCaughtUpWith(RedisProcess master) {
        long target = offset(master.info("replication"), "master_repl_offset:");
        waitFor(() -> offset(info("replication"), "slave_repl_offset:") >= target,
                "replica on port " + port + " to reach its master's replication offset " + target);
    }

    private static long offset(String info, String field) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).strip());
            }
        }
        return -1;
    }

    /** Makes this replica a master ({@code REPLICAOF NO ONE}): the test's own failover. */
    public void promote() {
        try {
            String reply = Resp.call(port, "REPLICAOF", "NO", "ONE");
            if (!"OK".equals(reply)) {
                throw new IllegalStateException("REPLICAOF NO ONE on port " + port + " replied " + reply);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's {@code INFO section} text, or "" while it does not answer. */
    public String info(String section) {
        try {
            String text = Resp.call(port, "INFO", section);
            return text == null ? "" : text;
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGSTOP: the server stays connected but answers nothing (a replica stalled, not gone) until {@link #resume()}. */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name, e);
        }
    }

    /** Whether the process is running. */
    public boolean alive() {
        return process != null && process.isAlive();
    }

    /** The loopback port the server listens on. */
    public int port() {
        return port;
    }

    /** The server's data folder. */
    public Path dir() {
        return dir;
    }

    /** The store URL of this server. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** SIGKILL: the server gets no chance to flush anything more. */
    public void kill() {
        process.destroyForcibly();
        waitFor(() -> !process.isAlive(), "redis-server on port " + port + " to die");
    }

    /** Starts the server again on the same directory and port (it reloads its AOF). */
    public void restart() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is still running");
        }
        launch();
    }

    private void launch() {
        List<String> cmd = new ArrayList<>(List.of(binary("redis-server"), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                "--dir", dir.toString(), "--daemonize", "no", "--protected-mode", "no",
                "--repl-diskless-sync-delay", "0")); // a replica's first sync starts at once, not after 5 s
        cmd.addAll(extra);
        try {
            process = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start redis-server: " + e.getMessage(), e);
        }
        try {
            awaitReady();
        } catch (RuntimeException e) {
            process.destroyForcibly(); // never leave a server behind that the test cannot use
            throw e;
        }
    }

    private void awaitReady() {
        waitFor(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited: " + log());
            }
            try {
                return "PONG".equals(Resp.call(port, "PING"));
            } catch (IOException e) {
                return false;
            }
        }, "redis-server on port " + port + " to answer PING");
    }

    /** The server's log so far (for a failing test's message). */
    public String log() {
        try {
            String text = Files.readString(dir.resolve("server.log"));
            return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
        } catch (IOException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }

    /** Polls {@code ready} every few milliseconds until it holds or {@link #READY} has passed. */
    public static void waitFor(BooleanSupplier ready, String what) {
        long deadline = System.nanoTime() + READY.toNanos();
        while (!ready.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + READY.toSeconds() + " s waiting for " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }

    /** The path of a Redis binary, or a failure that says how to install it. */
    public static String binary(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IllegalStateException(name + " is not installed: run 'apt-get install redis-server' (or scripts/ci-redis.sh)"
                + " — the Redis store's tests need a real server" + ("true".equals(System.getenv("CI")) ? " (CI=true: this is a failure)" : ""));
    }

    /**
     * A free loopback port whose cluster bus port (+10000) is free too.
     *
     * @throws IOException when no free port pair is found
     */
    public static int freePort() throws IOException {
        for (int i = 0; i < 50; i++) {
            int p;
            try (ServerSocket s = new ServerSocket(0)) {
                p = s.getLocalPort();
            }
            if (p + 10000 > 65535) {
                continue;
            }
            try (ServerSocket bus = new ServerSocket(p + 10000)) {
                return p;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port pair found");
    }
}
