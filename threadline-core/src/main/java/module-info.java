/**
 * Threadline's core: the public API (tenant views, sessions, the model of state and events, the skill,
 * model and store SPIs) and, unexported, the engine. Packages under {@code dev.threadline.core.internal}
 * are shared only with Threadline's own modules (stores, CLI, bench): they are not API and may change
 * in any release. On the class path the same rule holds by convention.
 */
module dev.threadline.core {
    requires transitive com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires com.networknt.schema;
    requires tools.jackson.databind;
    requires jtokkit;
    requires transitive org.slf4j;

    exports dev.threadline.core;
    exports dev.threadline.core.context;
    exports dev.threadline.core.event;
    exports dev.threadline.core.json;
    exports dev.threadline.core.llm;
    exports dev.threadline.core.model;
    exports dev.threadline.core.runtime;
    exports dev.threadline.core.skill;
    exports dev.threadline.core.skill.builtin;
    exports dev.threadline.core.state;
    exports dev.threadline.core.store;

    exports dev.threadline.core.internal.json to dev.threadline.store.sqlite, dev.threadline.store.postgres, dev.threadline.store.redis, dev.threadline.store.tck,
            dev.threadline.cli, dev.threadline.bench;
    exports dev.threadline.core.internal.runtime to dev.threadline.bench;
    exports dev.threadline.core.internal.state to dev.threadline.store.sqlite, dev.threadline.store.postgres, dev.threadline.store.redis, dev.threadline.store.tck,
            dev.threadline.cli, dev.threadline.bench;
    exports dev.threadline.core.internal.store to dev.threadline.store.sqlite, dev.threadline.store.postgres, dev.threadline.store.redis, dev.threadline.store.tck,
            dev.threadline.cli, dev.threadline.bench;

    exports dev.threadline.core.internal.log to dev.threadline.models, dev.threadline.store.redis, dev.threadline.store.sqlite,
            dev.threadline.store.postgres, dev.threadline.cli, dev.threadline.bench;

    uses dev.threadline.core.store.StoreProvider;
    uses org.slf4j.spi.SLF4JServiceProvider;

    opens dev.threadline.core.context to com.fasterxml.jackson.databind;
    opens dev.threadline.core.event to com.fasterxml.jackson.databind;
    opens dev.threadline.core.model to com.fasterxml.jackson.databind;
    opens dev.threadline.core.state to com.fasterxml.jackson.databind;
    opens dev.threadline.core.store to com.fasterxml.jackson.databind;
}
