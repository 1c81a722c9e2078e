package dev.threadline.architecture;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Threadline's library and application modules as the architecture rules see them: each module's root package
 * and the modules its main code may use (its compile-scope dependencies; the arrows of the module diagram in
 * docs/architecture.md). A class belongs to the module with the longest root that prefixes its package.
 */
final class Modules {
    /** One module: its Maven artifact, its root package, and the artifacts its main code may depend on. */
    record Module(String artifact, String root, Set<String> uses) {
        boolean owns(String packageName) {
            return packageName.equals(root) || packageName.startsWith(root + ".");
        }
    }

    private static final Set<String> STORES = Set.of("threadline-store-sqlite", "threadline-store-postgres", "threadline-store-redis");

    static final List<Module> ALL = List.of(
            new Module("threadline-core", "dev.threadline.core", Set.of()),
            new Module("threadline-store-tck", "dev.threadline.store.tck", Set.of("threadline-core")),
            new Module("threadline-test-harness", "dev.threadline.harness", Set.of("threadline-core")),
            new Module("threadline-store-jdbc", "dev.threadline.store.jdbc", Set.of("threadline-core")),
            new Module("threadline-store-sqlite", "dev.threadline.store.sqlite", Set.of("threadline-core", "threadline-store-jdbc")),
            new Module("threadline-store-postgres", "dev.threadline.store.postgres", Set.of("threadline-core", "threadline-store-jdbc")),
            new Module("threadline-store-redis", "dev.threadline.store.redis", Set.of("threadline-core")),
            new Module("threadline-models", "dev.threadline.models", Set.of("threadline-core")),
            new Module("threadline-chat-memory", "dev.threadline.chatmemory", Set.of("threadline-core")),
            new Module("threadline-langchain4j", "dev.threadline.langchain4j", Set.of("threadline-core", "threadline-chat-memory")),
            new Module("threadline-spring-ai", "dev.threadline.springai", Set.of("threadline-core", "threadline-chat-memory")),
            new Module("threadline-spring-boot-starter", "dev.threadline.springboot", Set.of("threadline-core", "threadline-spring-ai",
                    "threadline-store-sqlite")),
            new Module("threadline-langgraph4j", "dev.threadline.langgraph4j", Set.of("threadline-core")),
            new Module("threadline-adk", "dev.threadline.adk", Set.of("threadline-core")),
            new Module("threadline-mcp", "dev.threadline.mcp", Set.of("threadline-core")),
            new Module("threadline-server", "dev.threadline.server", Set.of("threadline-core", "threadline-models", "threadline-store-sqlite")),
            new Module("threadline-cli", "dev.threadline.cli", union(STORES, Set.of("threadline-core", "threadline-models",
                    "threadline-server", "threadline-mcp", "threadline-store-jdbc"))),
            new Module("threadline-bench", "dev.threadline.bench", union(STORES, Set.of("threadline-core", "threadline-test-harness",
                    "threadline-langchain4j", "threadline-spring-ai", "threadline-langgraph4j", "threadline-adk", "threadline-server",
                    "threadline-models", "threadline-chat-memory", "threadline-store-jdbc"))));

    /**
     * Core's packages under {@code internal} that some other modules may use, with those modules: the qualified
     * {@code exports ... to} of core's module-info, which the class path does not enforce. The engine
     * ({@code core.internal.engine}) and the reducer ({@code core.internal.state}) are in no entry: core only.
     */
    static final Map<String, Set<String>> SHARED_INTERNALS = Map.of(
            "dev.threadline.core.internal.json", union(STORES, Set.of("threadline-store-jdbc", "threadline-cli")),
            "dev.threadline.core.internal.store", union(STORES, Set.of("threadline-store-jdbc", "threadline-store-tck")));

    private Modules() {}

    static Optional<Module> of(String packageName) {
        return ALL.stream().filter(m -> m.owns(packageName)).max(Comparator.comparingInt(m -> m.root().length()));
    }

    static Module named(String artifact) {
        return ALL.stream().filter(m -> m.artifact().equals(artifact)).findFirst().orElseThrow();
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }
}
