package dev.threadline.cli;

import dev.threadline.server.ServerConfig;
import dev.threadline.server.ThreadlineServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code threadline serve}: the HTTP API on the SQLite file, until the process is stopped (SIGINT or
 * SIGTERM shut it down gracefully). Prints the URL it listens on and, on a first start, the key it
 * made for tenant {@code default}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve the HTTP API (docs/http-api.md) on the database, bound to 127.0.0.1 unless --host says otherwise.",
                "On a first start (no key yet) it creates an API key for tenant 'default' and prints it once."})
final class ServeCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--port", paramLabel = "N", description = "port to listen on; 0 picks a free one (default 8080)")
    int port = 8080;

    @Option(names = "--host", paramLabel = "H", description = "address to bind (default 127.0.0.1)")
    String host = "127.0.0.1";

    @Option(names = "--workspace", paramLabel = "DIR", description = "folder read_file and list_files may read (default: those skills are off)")
    Path workspace;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        quietFrameworks();
        PrintWriter out = spec.commandLine().getOut();
        ThreadlineServer server = ThreadlineServer.start(ServerConfig.of(store.path()).withHost(host).withPort(port)
                .withWorkspace(workspace == null ? null : workspace.toAbsolutePath().normalize()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "threadline-serve-shutdown"));
        server.createdKey().ifPresent(k -> out.println("Created API key " + k.key().id() + " for tenant default (shown once): "
                + k.secret()));
        out.println("Threadline serving " + store.path() + " at " + server.url()); // last: once it is out, the server serves
        out.flush();
        stopped.await();
        return 0;
    }

    /** Jetty and Javalin log every start at INFO; a healthy server says only what it prints here. */
    private static void quietFrameworks() {
        for (String name : new String[] {"io.javalin", "org.eclipse.jetty"}) {
            String key = "org.slf4j.simpleLogger.log." + name;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "warn");
            }
        }
    }
}
