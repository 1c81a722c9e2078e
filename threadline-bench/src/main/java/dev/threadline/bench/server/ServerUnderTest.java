package dev.threadline.bench.server;

import dev.threadline.server.Limits;
import dev.threadline.server.ServerConfig;
import dev.threadline.server.ThreadlineServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A running {@code threadline serve} on loopback, port 0, on its own SQLite file: its URL, the key it
 * created for tenant {@code default}, and the memory of the process that serves. Either a child
 * process started by the {@code threadline} launcher (the real command, in its own JVM), or
 * {@link ThreadlineServer#start} in this JVM (for the smoke test). Closing stops it gracefully.
 */
abstract class ServerUnderTest implements AutoCloseable {
    private static final Pattern URL = Pattern.compile("^Threadline serving .* at (http://\\S+)$");
    private static final Pattern KEY = Pattern.compile("^Created API key .*: (tl_\\S+)$");

    abstract URI url();

    abstract String key();

    abstract Memory memory();

    /** The id of the process that serves (this JVM's for a server in-process). */
    abstract long pid();

    /** "child process (threadline serve, pid N)" or "in-process". */
    abstract String how();

    @Override
    public abstract void close() throws Exception;

    /**
     * Kills the serving process at once (SIGKILL: no graceful shutdown, its leases are left behind) and
     * waits until it has ended; returns whether it has. Only a child process can be killed.
     */
    boolean kill() throws InterruptedException {
        throw new UnsupportedOperationException("a server in this JVM cannot be killed; start it as a child process");
    }

    /**
     * Starts {@code launcher serve --db DB --port 0 --config FILE} (the file raises the limit of SSE
     * streams per tenant to {@code sseStreams}, the default configuration otherwise) and waits (up to {@code startup}, which covers the
     * launcher building the CLI jar when it is stale) for the line with the URL; the server's stderr
     * goes to {@code log}.
     */
    static ServerUnderTest child(Path launcher, Path db, Path log, Duration startup, int sseStreams)
            throws IOException, InterruptedException {
        Path config = Path.of(db + ".serve.json");
        Files.writeString(config, "{\"limits\": {\"maxSseStreamsPerTenant\": " + sseStreams + "}}\n");
        return child(List.of(launcher.toString(), "serve", "--db", db.toString(), "--port", "0", "--config", config.toString()),
                log, startup, null);
    }

    /**
     * Starts {@code command} (a {@code threadline serve} on port 0, or {@link ServeNode}) and waits up to
     * {@code startup} for the line with its URL; its stderr goes to {@code log}. With {@code knownKey}
     * null the server must print the key it created for tenant {@code default} (a first start on its
     * store); otherwise it is another node on a store that already has one, and {@code knownKey} is its key.
     */
    static ServerUnderTest child(List<String> command, Path log, Duration startup, String knownKey)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException gone) {
                // the process ended; the wait below reports it
            }
        });
        String key = knownKey;
        long deadline = System.nanoTime() + startup.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                p.destroyForcibly();
                throw new IOException("threadline serve printed no URL within " + startup.toSeconds() + " s"
                        + (p.isAlive() ? "" : " (exit " + p.exitValue() + ")") + "; its stderr: " + tail(log));
            }
            Matcher k = KEY.matcher(line);
            if (k.matches()) {
                key = k.group(1);
            }
            Matcher u = URL.matcher(line);
            if (u.matches()) {
                if (key == null) {
                    p.destroyForcibly();
                    throw new IOException("threadline serve printed no key for tenant default; give it a new store"
                            + " (a new --db file, or an empty database)");
                }
                return new Child(p, URI.create(u.group(1)), key);
            }
        }
    }

    /** {@link ThreadlineServer#start} in this JVM on port 0. */
    static ServerUnderTest inProcess(Path db, int sseStreams) {
        ThreadlineServer server = ThreadlineServer.start(ServerConfig.of(db).withPort(0)
                .withLimits(Limits.DEFAULT.withMaxSseStreamsPerTenant(sseStreams)));
        String key = server.createdKey().orElseThrow(() -> new IllegalStateException("the key file beside " + db
                + " already had a key; give the server a new file")).secret();
        return new ServerUnderTest() {
            @Override
            URI url() {
                return server.url();
            }

            @Override
            String key() {
                return key;
            }

            @Override
            Memory memory() {
                return Memory.self();
            }

            @Override
            long pid() {
                return ProcessHandle.current().pid();
            }

            @Override
            String how() {
                return "in-process (ThreadlineServer.start, port 0)";
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }

    private static String tail(Path log) {
        try {
            String s = Files.readString(log);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static final class Child extends ServerUnderTest {
        private final Process process;
        private final URI url;
        private final String key;

        private final Thread onExit;

        Child(Process process, URI url, String key) {
            this.process = process;
            this.url = url;
            this.key = key;
            this.onExit = new Thread(process::destroy, "serve-load-child-stop"); // a stopped benchmark leaves no server behind
            Runtime.getRuntime().addShutdownHook(onExit);
        }

        @Override
        URI url() {
            return url;
        }

        @Override
        String key() {
            return key;
        }

        @Override
        Memory memory() {
            return Memory.of(process.pid());
        }

        @Override
        long pid() {
            return process.pid();
        }

        @Override
        String how() {
            return "child process (threadline serve --port 0)";
        }

        @Override
        boolean kill() throws InterruptedException {
            process.destroyForcibly(); // SIGKILL on Linux
            return process.waitFor(30, TimeUnit.SECONDS) && !process.isAlive();
        }

        /** SIGTERM (the server shuts down gracefully), then SIGKILL if it has not ended within 30 s. */
        @Override
        public void close() throws InterruptedException {
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException exiting) {
                // the JVM is already exiting: the hook stops the server
            }
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
