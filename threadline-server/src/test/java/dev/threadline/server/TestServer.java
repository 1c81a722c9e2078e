package dev.threadline.server;

import java.nio.file.Path;

/** A real server on loopback, port 0, on a SQLite file in {@code dir}; closes with the test. */
final class TestServer implements AutoCloseable {
    final ThreadlineServer server;
    final Http http;

    TestServer(Path dir) {
        this(ServerConfig.of(dir.resolve("threadline.db")).withPort(0));
    }

    TestServer(ServerConfig config) {
        server = ThreadlineServer.start(config);
        http = new Http(server.url(), server.createdKey().orElseThrow().secret());
    }

    /** A client with a new key of {@code tenant}. */
    Http tenant(String tenant) {
        return new Http(server.url(), server.keys().create(tenant).secret());
    }

    @Override
    public void close() {
        server.close();
    }
}
