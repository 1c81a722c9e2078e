package dev.threadline.cli;

import dev.threadline.core.store.StateStores;
import dev.threadline.server.ConfigFile;
import dev.threadline.server.ServerConfig;
import dev.threadline.server.ThreadlineServer;
import dev.threadline.core.error.ThreadlineException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code threadline serve}: the HTTP API on a store (any backend: {@code --store URL}), until the
 * process is stopped (SIGINT or SIGTERM shut it down gracefully). Settings come from {@code --config
 * FILE} ({@link ConfigFile}), overridden by flags. Prints the URL it listens on and, on a first start,
 * the key it made for tenant {@code default}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve the HTTP API (docs/http-api.md) on the store, bound to 127.0.0.1 unless --host says otherwise.",
                "On a first start (no key in the store yet) it creates an API key for tenant 'default' and prints it once.",
                "Every server on one store shares its sessions and its keys."})
final class ServeCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--port", paramLabel = "N", description = "port to listen on; 0 picks a free one (default 8080)")
    Integer port;

    @Option(names = "--host", paramLabel = "H", description = "address to bind (default 127.0.0.1)")
    String host;

    @Option(names = "--config", paramLabel = "FILE", description = "a JSON file of settings (docs/http-api.md); flags override it")
    Path config;

    @Option(names = "--workspace", paramLabel = "DIR", description = "folder read_file and list_files may read (default: those skills are off)")
    Path workspace;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (port != null && (port < 0 || port > 65535)) {
            throw new ParameterException(spec.commandLine(), "invalid --port: " + port + " is not a port (0-65535)");
        }
        PrintWriter out = spec.commandLine().getOut();
        ServerConfig settings = ServerConfig.ofStore(store.url());
        if (config != null) {
            Path file = config.toAbsolutePath().normalize();
            if (!Files.isRegularFile(file)) {
                throw new ParameterException(spec.commandLine(), "invalid --config: " + file
                        + (Files.isDirectory(file) ? " is a folder, not a file" : " was not found"));
            }
            settings = ConfigFile.apply(config, settings);
        }
        if (store.given() || config == null) {
            settings = settings.withStore(store.url());
        }
        if (host != null) {
            settings = settings.withHost(host);
        }
        if (port != null) {
            settings = settings.withPort(port);
        }
        if (workspace != null) {
            settings = settings.withWorkspace(workspace.toAbsolutePath().normalize());
        }
        checkFree(settings.host(), settings.port()); // before the store: a first start would make a key nobody sees
        ThreadlineServer server;
        try {
            server = ThreadlineServer.start(settings);
        } catch (RuntimeException e) {
            BindException bind = bindFailure(e);
            if (bind == null) {
                throw e;
            }
            throw cannotListen(settings.host(), settings.port(), bind); // taken since the check
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "threadline-serve-shutdown"));
        server.createdKey().ifPresent(k -> out.println("Created API key " + k.key().id() + " for tenant default (shown once): "
                + k.secret()));
        out.println("Threadline serving " + StateStores.redact(settings.store()) + " at " + server.url()); // last: once it is out, the server serves
        out.flush();
        stopped.await();
        return 0;
    }

    /**
     * Refuses a port that cannot be bound now, in one line: past this check Javalin logs a failed bind
     * as an ERROR with its stack trace. Port 0 always binds.
     */
    private static void checkFree(String host, int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            throw cannotListen(host, port, e);
        } catch (IOException e) {
            throw new ThreadlineException("cannot listen on " + host + ":" + port + ": " + e.getMessage());
        }
    }

    private static ThreadlineException cannotListen(String host, int port, BindException e) {
        String why = e.getMessage() != null && e.getMessage().contains("in use")
                ? "the port is in use; choose another with --port (0 picks a free one)"
                : String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return new ThreadlineException("cannot listen on " + host + ":" + port + ": " + why);
    }

    private static BindException bindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException b) {
                return b;
            }
        }
        return null;
    }
}
