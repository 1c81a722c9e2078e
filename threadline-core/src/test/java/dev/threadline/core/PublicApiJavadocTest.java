package dev.threadline.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every public type, method, constructor and field of the library modules has Javadoc: a summary sentence,
 * what it does under threads (types), a {@code @throws} per declared exception (rules in {@link ApiDocs}).
 */
class PublicApiJavadocTest {

    @Test
    void everyLibraryModulesPublicApiIsDocumented() {
        Path root = Path.of("..");
        List<String> modules = ApiDocs.libraryModules(root);
        assertThat(modules).contains("threadline-core", "threadline-store-sqlite", "threadline-mcp");
        List<ApiDocs.Gap> gaps = modules.stream().flatMap(m -> ApiDocs.scan(root, m).gaps().stream()).toList();
        assertThat(gaps).as("public API without Javadoc (list them all: java threadline-core/src/test/java/dev/threadline/core/ApiDocs.java --list)")
                .isEmpty();
    }

    @Test
    void theCheckFindsAnUndocumentedMethodAndAMissingThrows(@org.junit.jupiter.api.io.TempDir Path root) throws Exception {
        Path src = java.nio.file.Files.createDirectories(root.resolve("m/src/main/java/x"));
        java.nio.file.Files.writeString(src.resolve("A.java"), """
                package x;
                /** A thing. Thread-safe. */
                public final class A {
                    /** Documented. */
                    public void documented() {}
                    public void bare() {}
                    /** Reads. */
                    public void reads() throws java.io.IOException {}
                    void packagePrivate() {}
                    @org.junit.jupiter.api.Test
                    public void aContractTestNamedAfterWhatItChecks() {}
                }
                """);
        java.nio.file.Files.writeString(src.resolve("B.java"), """
                package x;
                /** A class with no word on how it may be shared. */
                public class B {}
                """);
        ApiDocs.Report r = ApiDocs.scan(root, "m");

        assertThat(r.gaps()).extracting(ApiDocs.Gap::what).containsExactlyInAnyOrder("has no Javadoc summary sentence",
                "declares IOException without a @throws", "says nothing about threads (thread-safe? immutable?)");
        assertThat(r.elements()).isEqualTo(5);
        assertThat(r.documented()).isEqualTo(4);
    }
}
