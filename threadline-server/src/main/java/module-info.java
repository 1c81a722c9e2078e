/**
 * Threadline's HTTP server ({@code threadline serve}): {@link dev.threadline.server.ThreadlineServer} runs
 * the HTTP API for a {@link dev.threadline.server.ServerConfig} (read from a file by
 * {@link dev.threadline.server.ConfigFile}, with its {@link dev.threadline.server.Limits} and
 * {@link dev.threadline.server.RetentionPolicy}); {@code dev.threadline.server.keys} is the store of API keys
 * per tenant. The HTTP plumbing ({@code .http}) and the compatible wire formats ({@code .compat}) are the
 * server's own and not exported. Javalin and Micrometer are automatic modules.
 */
module dev.threadline.server {
    requires transitive dev.threadline.core;
    requires dev.threadline.models;
    requires dev.threadline.store.sqlite;
    requires io.javalin;
    requires jakarta.servlet;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.ee10.servlet;
    requires micrometer.core;
    requires micrometer.registry.prometheus;
    requires org.slf4j;
    requires java.net.http; // webhook deliveries
    // traces: the SDK, configured from the OTEL_* variables (the API comes with core)
    requires io.opentelemetry.sdk;
    requires io.opentelemetry.sdk.common;
    requires io.opentelemetry.sdk.trace;
    requires io.opentelemetry.sdk.autoconfigure;

    exports dev.threadline.server;
    exports dev.threadline.server.keys;
    exports dev.threadline.server.webhooks;

    // the request bodies and answers are records and maps Jackson reads and writes reflectively
    opens dev.threadline.server to com.fasterxml.jackson.databind;
    opens dev.threadline.server.keys to com.fasterxml.jackson.databind;
    opens dev.threadline.server.webhooks to com.fasterxml.jackson.databind;
    opens dev.threadline.server.http to com.fasterxml.jackson.databind;
    opens dev.threadline.server.compat to com.fasterxml.jackson.databind;
    opens dev.threadline.server.compat.langgraph to com.fasterxml.jackson.databind;
    opens dev.threadline.server.compat.openai to com.fasterxml.jackson.databind;
}
