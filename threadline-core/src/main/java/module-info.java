/**
 * Threadline's core: the public API (the runtime and its tenant views and sessions, the model of state
 * and events, the skill, model and store SPIs) and, unexported, the engine
 * ({@code dev.threadline.core.internal.engine} and its sub-packages). The other packages under
 * {@code dev.threadline.core.internal} (the record codec, the reducer, the stores' shared helpers) are
 * shared only with Threadline's own modules: they are not API and may change in any release. On the
 * class path the same rules hold, checked by the architecture tests.
 */
module dev.threadline.core {
    requires transitive com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires com.networknt.schema;
    requires tools.jackson.databind;
    requires jtokkit;
    requires transitive org.slf4j;
    // traces: the API only, a no-op unless the application gives the runtime an SDK (ADR 0038)
    requires transitive io.opentelemetry.api;
    requires transitive io.opentelemetry.context;

    exports dev.threadline.core;
    exports dev.threadline.core.error;
    exports dev.threadline.core.context;
    exports dev.threadline.core.crypto;
    exports dev.threadline.core.event;
    exports dev.threadline.core.export;
    exports dev.threadline.core.fault;
    exports dev.threadline.core.json;
    exports dev.threadline.core.llm;
    exports dev.threadline.core.log;
    exports dev.threadline.core.model;
    exports dev.threadline.core.runtime;
    exports dev.threadline.core.session;
    exports dev.threadline.core.skill;
    exports dev.threadline.core.skill.builtin;
    exports dev.threadline.core.state;
    exports dev.threadline.core.store;
    exports dev.threadline.core.store.memory;
    exports dev.threadline.core.testkit;

    // shared with Threadline's own modules only: the record codec and the stores' helpers (not the engine)
    exports dev.threadline.core.internal.json to dev.threadline.store.jdbc, dev.threadline.store.sqlite, dev.threadline.store.postgres, dev.threadline.store.redis,
            dev.threadline.cli;
    exports dev.threadline.core.internal.store to dev.threadline.store.jdbc, dev.threadline.store.sqlite, dev.threadline.store.postgres, dev.threadline.store.redis,
            dev.threadline.store.tck;

    uses dev.threadline.core.store.StoreProvider;
    provides dev.threadline.core.store.StoreProvider with dev.threadline.core.store.memory.MemoryStoreProvider;
    uses org.slf4j.spi.SLF4JServiceProvider;

    opens dev.threadline.core.context to com.fasterxml.jackson.databind;
    opens dev.threadline.core.event to com.fasterxml.jackson.databind;
    opens dev.threadline.core.model to com.fasterxml.jackson.databind;
    opens dev.threadline.core.session to com.fasterxml.jackson.databind;
    opens dev.threadline.core.state to com.fasterxml.jackson.databind;
    opens dev.threadline.core.store to com.fasterxml.jackson.databind;
    // the stored form's readers are private records Jackson builds reflectively
    opens dev.threadline.core.internal.json to com.fasterxml.jackson.databind;
}
