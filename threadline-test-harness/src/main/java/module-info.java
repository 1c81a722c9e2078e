/**
 * Threadline's test harness, for the tests of the stores, the server and the CLI (not for applications):
 * child JVMs that run a session while a test signals, stops and kills them ({@code process}), throwaway
 * PostgreSQL and Redis servers on loopback ({@code servers}), and the history checker that judges what
 * several processes did to one store ({@code history}), and the check that a doc's Java snippet is a region
 * of a compiled test ({@code docs}, for the adapter and MCP modules' tests of docs/integrations.md).
 */
module dev.threadline.harness {
    requires transitive dev.threadline.core;
    requires transitive java.sql;
    requires org.assertj.core;
    requires jdk.httpserver; // WebhookReceiver
    requires java.management; // NodeStats: what a soak samples in a child JVM

    exports dev.threadline.harness.docs;
    exports dev.threadline.harness.history;
    exports dev.threadline.harness.process;
    exports dev.threadline.harness.servers;
}
