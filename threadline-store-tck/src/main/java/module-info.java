/**
 * The store conformance suite (TCK): one JUnit suite per role of the store SPI, four that span the
 * roles, the whole contract a backend's test extends ({@code StateStoreContract}), the guard that
 * proves a backend runs all of it, and the fixtures the suites build data with. The process harness
 * and the server launchers the stores' other tests use are in {@code dev.threadline.harness}.
 */
module dev.threadline.store.tck {
    requires transitive dev.threadline.core;
    requires transitive org.junit.jupiter.api;
    requires transitive org.assertj.core;

    exports dev.threadline.store.tck;

    // JUnit instantiates the nested suites of StateStoreContract and calls their tests reflectively
    opens dev.threadline.store.tck to org.junit.platform.commons;
}
