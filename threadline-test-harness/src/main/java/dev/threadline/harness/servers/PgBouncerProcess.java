package dev.threadline.harness.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A throwaway pgbouncer (Debian's {@code pgbouncer}) for tests, in front of a {@link PgServer}: its
 * ini and user list in a temporary directory, {@code pool_mode = transaction}, {@code auth_type = trust}
 * (as the server's own {@code initdb -A trust}) for {@link PgServer#USER}, listening on a free loopback
 * port and no Unix socket, every database name passed on to the server ({@code * = host=127.0.0.1
 * port=...}). Run as the {@code postgres} user when the tests run as root (pgbouncer refuses root).
 * The caller closes it (stops the process, deletes the directory). Thread-safe.
 */
public final class PgBouncerProcess implements AutoCloseable {
    /** How to get pgbouncer, for messages. */
    public static final String INSTALL = "apt-get install pgbouncer (scripts/ci-pgbouncer.sh does it)";

    private final Path dir;
    private final int port;
    private final Process process;

    private PgBouncerProcess(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /**
     * The pgbouncer binary: {@code $THREADLINE_PGBOUNCER}, else {@code pgbouncer} on the PATH, else
     * {@code /usr/sbin/pgbouncer}; empty when there is none.
     */
    public static Optional<Path> binary() {
        List<Path> candidates = new ArrayList<>();
        String env = System.getenv("THREADLINE_PGBOUNCER");
        if (env != null && !env.isBlank()) {
            candidates.add(Path.of(env));
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(":")) {
                if (!d.isBlank()) {
                    candidates.add(Path.of(d, "pgbouncer"));
                }
            }
        }
        candidates.add(Path.of("/usr/sbin/pgbouncer"));
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /** The settings of the {@code [pgbouncer]} section this class writes unless told otherwise. */
    public static Map<String, String> defaults() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("pool_mode", "transaction");
        s.put("auth_type", "trust");
        s.put("max_client_conn", "1000");
        s.put("default_pool_size", "20");
        // pgjdbc sends extra_float_digits in its startup message; pgbouncer refuses unknown startup parameters
        s.put("ignore_startup_parameters", "extra_float_digits");
        s.put("server_login_retry", "1");
        return s;
    }

    /**
     * Starts a pgbouncer in front of {@code server} with {@link #defaults()}, and waits until it accepts
     * connections.
     *
     * @throws IllegalStateException when pgbouncer is not installed or does not start
     */
    public static PgBouncerProcess start(PgServer server) {
        return start(server, defaults());
    }

    /**
     * Starts a pgbouncer in front of {@code server} with these {@code [pgbouncer]} settings (the
     * listening address, port, files and user list are this class's; start from {@link #defaults()} and
     * remove or change entries, e.g. remove {@code ignore_startup_parameters}).
     *
     * @throws IllegalStateException when pgbouncer is not installed or does not start
     */
    public static PgBouncerProcess start(PgServer server, Map<String, String> settings) {
        Path bin = binary().orElseThrow(() -> new IllegalStateException("pgbouncer is not installed: run '" + INSTALL
                + "' — the pgbouncer tests need a real one" + ("true".equals(System.getenv("CI")) ? " (CI=true: this is a failure)" : "")));
        try {
            Path dir = Files.createTempDirectory("threadline-pgbouncer-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx")); // the umask may narrow it
            int port = freePort();
            Files.writeString(dir.resolve("userlist.txt"), "\"" + PgServer.USER + "\" \"\"\n");
            StringBuilder ini = new StringBuilder();
            ini.append("[databases]\n* = host=127.0.0.1 port=").append(server.port()).append('\n');
            ini.append("[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ").append(port).append('\n');
            ini.append("unix_socket_dir =\n");
            ini.append("auth_file = ").append(dir.resolve("userlist.txt")).append('\n');
            ini.append("pidfile = ").append(dir.resolve("pgbouncer.pid")).append('\n');
            ini.append("admin_users = ").append(PgServer.USER).append('\n');
            settings.forEach((k, v) -> ini.append(k).append(" = ").append(v).append('\n'));
            Path conf = dir.resolve("pgbouncer.ini");
            Files.writeString(conf, ini);
            List<String> command = new ArrayList<>();
            if ("root".equals(System.getProperty("user.name"))) {
                command.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"));
            }
            command.addAll(List.of(bin.toString(), conf.toString()));
            Path log = dir.resolve("pgbouncer.log");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            PgBouncerProcess bouncer = new PgBouncerProcess(dir, port, p);
            bouncer.awaitListening(log);
            return bouncer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Polls, bounded (30 s), until the port accepts a TCP connection; fails when pgbouncer exits first. */
    private void awaitListening(Path log) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("pgbouncer exited with " + process.exitValue() + ": " + Files.readString(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
        close();
        throw new IllegalStateException("pgbouncer did not listen on 127.0.0.1:" + port + " within 30 s: " + Files.readString(log));
    }

    /** The loopback port pgbouncer listens on. */
    public int port() {
        return port;
    }

    /** A {@code postgresql://} URL of database {@code db} through this pgbouncer. */
    public String url(String db) {
        return "postgresql://" + PgServer.USER + "@127.0.0.1:" + port + "/" + db;
    }

    /** What pgbouncer logged so far (for a failing test's message). */
    public String log() {
        try {
            return Files.readString(dir.resolve("pgbouncer.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public synchronized void close() {
        if (process.isAlive()) {
            process.destroy(); // SIGTERM: pgbouncer exits at once
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: a temporary directory
        }
    }
}
