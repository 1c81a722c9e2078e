package dev.threadline.harness.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL server for tests (of the PostgreSQL store and of whatever runs on it, such as
 * the CLI's; the tests' class path must hold pgjdbc): {@code initdb} into a temporary directory, then
 * {@code postgres} on a free loopback port with its socket in that directory, run as the
 * {@code postgres} user when the tests run as root (the server refuses root). {@link #shared()} is
 * the one server of the test JVM, stopped and deleted when the JVM exits; a test that stops a server
 * starts its own. Thread-safe.
 */
public final class PgServer implements AutoCloseable {
    /** The database user the server is initialised with. */
    public static final String USER = "threadline";
    private static final String INSTALL = "apt-get install postgresql";
    private static PgServer shared;

    private final Path bin;
    private final Path dir;
    private final int port;
    private final List<String> settings;
    private Process process;

    private PgServer(Path bin, Path dir, int port, List<String> settings) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.settings = List.copyOf(settings);
    }

    /** The server shared by this JVM's tests, started on first use. */
    public static synchronized PgServer shared() {
        if (shared == null) {
            shared = create();
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "pg-test-server-stop"));
        }
        return shared;
    }

    /** A new server of its own (initialised and started); the caller closes it. */
    public static PgServer create() {
        return create(List.of());
    }

    /**
     * A new server of its own with more {@code name=value} settings, given after the tests' own
     * ({@code fsync=off}, {@code full_page_writes=off}, ...) so that they override them: the benchmark
     * passes {@code fsync=on} and {@code full_page_writes=on} to measure a durable server. The caller closes it.
     */
    public static PgServer create(List<String> settings) {
        Path bin = binaries();
        try {
            Path dir = Files.createTempDirectory("threadline-pg-");
            PgServer server = new PgServer(bin, dir, freePort(), settings);
            server.initdb();
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A streaming standby of {@code primary} on loopback port {@code port} (0: a free one), made by
     * {@code pg_basebackup -R} (fast checkpoint, WAL streamed) and started with the same settings as
     * the primary; the caller closes it. Used by {@link PgFailoverPair}.
     */
    static PgServer standbyOf(PgServer primary, int port) {
        Path bin = binaries();
        try {
            Path dir = Files.createTempDirectory("threadline-pg-standby-");
            PgServer server = new PgServer(bin, dir, port == 0 ? freePort() : port, primary.settings);
            server.baseBackup(primary);
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void baseBackup(PgServer primary) throws IOException {
        if (root()) {
            chown(dir);
        }
        Path log = dir.resolve("basebackup.log");
        Process p = new ProcessBuilder(asServerUser(bin.resolve("pg_basebackup").toString(), "-h", "127.0.0.1",
                "-p", Integer.toString(primary.port), "-U", USER, "-D", dir.resolve("data").toString(), "-R",
                "-X", "stream", "-c", "fast", "--no-sync"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("pg_basebackup from port " + primary.port + " failed: " + Files.readString(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running pg_basebackup", e);
        }
    }

    /** Where initdb and postgres are: $THREADLINE_PG_BIN, or the newest /usr/lib/postgresql/N/bin. */
    public static Path binaries() {
        List<Path> candidates = new ArrayList<>();
        String env = System.getenv("THREADLINE_PG_BIN");
        if (env != null && !env.isBlank()) {
            candidates.add(Path.of(env));
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                versions.map(v -> v.resolve("bin"))
                        .sorted(Comparator.comparing((Path p) -> versionOf(p)).reversed())
                        .forEach(candidates::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (Path p : candidates) {
            if (Files.isExecutable(p.resolve("initdb")) && Files.isExecutable(p.resolve("postgres"))) {
                return p;
            }
        }
        String where = System.getenv("CI") != null && System.getenv("CI").equals("true") ? "CI" : "this machine";
        throw new IllegalStateException("The PostgreSQL tests need a PostgreSQL server (initdb and postgres), found none"
                + " on " + where + " (looked in $THREADLINE_PG_BIN and /usr/lib/postgresql/*/bin): run `" + INSTALL
                + "` (scripts/ci-postgres.sh does it), or set THREADLINE_PG_BIN to the directory that holds them");
    }

    private static int versionOf(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The command line, run as the postgres user when we are root. */
    private List<String> asServerUser(String... command) {
        List<String> out = new ArrayList<>();
        if (root()) {
            out.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"));
        }
        out.addAll(List.of(command));
        return out;
    }

    private void initdb() throws IOException {
        if (root()) {
            chown(dir);
        }
        Path log = dir.resolve("initdb.log");
        Process p = new ProcessBuilder(asServerUser(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(),
                "-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("initdb failed: " + Files.readString(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running initdb", e);
        }
    }

    private static void chown(Path path) throws IOException {
        UserPrincipalLookupService users = path.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal user = users.lookupPrincipalByName("postgres");
        GroupPrincipal group = users.lookupPrincipalByGroupName("postgres");
        Files.setOwner(path, user);
        Files.getFileAttributeView(path, PosixFileAttributeView.class).setGroup(group);
    }

    /** Starts the server (again, after {@link #stop}) and waits until it accepts connections. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        try {
            Path log = dir.resolve("server.log");
            int readyBefore = readyLines(log);
            List<String> command = new ArrayList<>(asServerUser(bin.resolve("postgres").toString(), "-D",
                    dir.resolve("data").toString(), "-k", dir.toString(), "-p", Integer.toString(port),
                    "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300", "-c", "fsync=off",
                    "-c", "full_page_writes=off", "-c", "lc_messages=C"));
            settings.forEach(s -> command.addAll(List.of("-c", s)));
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            awaitReady(log, readyBefore);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many times the server has said in {@code log} that it is ready (once per start). */
    private static int readyLines(Path log) throws IOException {
        if (!Files.exists(log)) {
            return 0;
        }
        String text = Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1);
        int n = 0;
        for (int i = text.indexOf(READY); i >= 0; i = text.indexOf(READY, i + 1)) {
            n++;
        }
        return n;
    }

    private static final String READY = "database system is ready to accept"; // "connections", or "read-only connections" for a standby

    /**
     * Polls, bounded, until this start has logged that it is ready and takes a connection: a connection
     * alone was not enough, since a store's first call after a restart then still met "the database
     * system is starting up" (seen under load). Fails when the server exits or is not up after 60 s.
     */
    private void awaitReady(Path log, int readyBefore) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("postgres exited with " + process.exitValue() + ": " + Files.readString(log));
            }
            if (readyLines(log) > readyBefore) {
                try (Connection c = connect("postgres")) {
                    return;
                } catch (SQLException e) {
                    last = e;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        throw new IllegalStateException("postgres did not accept connections within 60 s (" + last + "): " + Files.readString(log));
    }

    /** Stops the server (fast shutdown: open sessions are disconnected) and waits until it has exited. */
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends {@code signal} (STOP or CONT) to the server and all its processes (the postmaster and its
     * children, by their ids), to test a server that stops answering without closing connections.
     */
    public synchronized void signalAll(String signal) {
        List<String> pids = new ArrayList<>();
        pids.add(Long.toString(process.pid()));
        process.toHandle().descendants().forEach(h -> pids.add(Long.toString(h.pid())));
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        command.addAll(pids);
        try {
            Process kill = new ProcessBuilder(command).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pids + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Kills the server and every process of it with SIGKILL, as a machine crash would (no shutdown
     * checkpoint, connections dropped mid-statement), and waits until they have all exited, so that its
     * port is free again.
     */
    public synchronized void kill() {
        if (process == null || !process.isAlive()) {
            return;
        }
        List<ProcessHandle> all = new ArrayList<>(process.toHandle().descendants().toList());
        all.add(process.toHandle());
        signalAll("KILL");
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("a postgres process (" + h.pid() + ") did not exit after SIGKILL", e);
            }
        }
    }

    /** Promotes this standby to a primary and waits (bounded, 60 s) until it takes writes. */
    public synchronized void promote() {
        try (Connection c = connect("postgres"); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT pg_promote(true, 60)")) {
            if (!rs.next() || !rs.getBoolean(1)) {
                throw new IllegalStateException("pg_promote on port " + port + " did not finish within 60 s");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot promote the standby on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** The server's data directory (tables, write-ahead log), for tests that look at its bytes. */
    public Path dataDirectory() {
        return dir.resolve("data");
    }

    /** The loopback port the server listens on. */
    public int port() {
        return port;
    }

    /** A {@code postgresql://} URL of database {@code db} on this server. */
    public String url(String db) {
        return "postgresql://" + USER + "@127.0.0.1:" + port + "/" + db;
    }

    /**
     * A plain JDBC connection to database {@code db} (for tests' own SQL).
     *
     * @throws SQLException when the server refuses the connection
     */
    public Connection connect(String db) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + db, p);
    }

    /** Creates database {@code name} if it does not exist. */
    public synchronized void createDatabase(String name) {
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: a temporary directory
        }
    }
}
