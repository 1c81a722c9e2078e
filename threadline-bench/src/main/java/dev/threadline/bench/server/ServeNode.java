package dev.threadline.bench.server;

import dev.threadline.core.store.StateStores;
import dev.threadline.server.ServerConfig;
import dev.threadline.server.ThreadlineServer;
import java.util.concurrent.CountDownLatch;

/**
 * One node of the {@code overload} benchmark when it is not started through the {@code threadline}
 * launcher (the smoke test, whose module build has no launcher): {@code java -cp CLASSPATH
 * dev.threadline.bench.server.ServeNode STORE_URL} does what {@code threadline serve --store STORE_URL
 * --port 0} does with the default settings, and prints the same two lines (the key on a first start,
 * then the URL). It serves until the process is stopped; SIGTERM closes it gracefully.
 */
final class ServeNode {
    private ServeNode() {}

    /** Serves the store {@code args[0]} on loopback, port 0, until the process is stopped. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: ServeNode STORE_URL");
            System.exit(2);
        }
        ThreadlineServer server = ThreadlineServer.start(ServerConfig.ofStore(args[0]).withPort(0));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "serve-node-shutdown"));
        server.createdKey().ifPresent(k -> System.out.println("Created API key " + k.key().id()
                + " for tenant default (shown once): " + k.secret()));
        System.out.println("Threadline serving " + StateStores.redact(args[0]) + " at " + server.url());
        System.out.flush();
        stopped.await();
    }
}
