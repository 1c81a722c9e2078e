package dev.threadline.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.Slices;
import dev.threadline.architecture.Modules.Module;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The module and package rules of docs/architecture.md, checked on the main classes of every module (the jars of
 * this build, on this module's test class path): module arrows point one way (core depends on no other module),
 * no package cycle within a module, core's engine is reached from core only, the adapters, the models, the
 * server and the bench use only core's public API, every library module has a module-info, and what a module-info
 * does not export is used by no other module (on the class path either).
 */
class ArchitectureTest {
    private static final List<String> ON_THE_PUBLIC_API = List.of("threadline-models", "threadline-chat-memory",
            "threadline-langchain4j", "threadline-spring-ai", "threadline-langgraph4j", "threadline-adk", "threadline-mcp",
            "threadline-server", "threadline-bench");

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.threadline");
    }

    @Test
    void theTableNamesEveryModuleOfTheBuild() throws IOException {
        String pom = Files.readString(Path.of("..", "pom.xml"));
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        Set<String> built = new java.util.TreeSet<>();
        while (m.find()) {
            built.add(m.group(1));
        }
        built.removeAll(Set.of("threadline-bom", "threadline-dependencies", "threadline-architecture", "examples"));
        assertThat(Modules.ALL.stream().map(Module::artifact)).as("Modules.ALL against the root pom's <modules>")
                .containsExactlyInAnyOrderElementsOf(built);
    }

    @TestFactory
    Stream<DynamicTest> everyModulesClassesAreImported() {
        return Modules.ALL.stream().map(module -> DynamicTest.dynamicTest(module.artifact(), () ->
                assertThat(classes.stream().filter(c -> module.owns(c.getPackageName())).count())
                        .as("classes of %s (is it a test dependency of threadline-architecture?)", module.artifact())
                        .isPositive()));
    }

    @Test
    void moduleArrowsPointOneWay() {
        classes().that().resideInAPackage("dev.threadline..").should(useOnlyTheModulesTheirModuleDependsOn()).check(classes);
    }

    @Test
    void coreDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage("dev.threadline.core..")
                .should().dependOnClassesThat(DescribedPredicate.describe("are in another Threadline module",
                        (JavaClass c) -> c.getPackageName().startsWith("dev.threadline.") && !Modules.named("threadline-core").owns(c.getPackageName())))
                .check(classes);
    }

    @TestFactory
    Stream<DynamicTest> noPackageCycleWithinAModule() {
        return Modules.ALL.stream().map(module -> DynamicTest.dynamicTest(module.artifact(), () -> {
            SliceAssignment byPackage = new SliceAssignment() {
                @Override
                public SliceIdentifier getIdentifierOf(JavaClass c) {
                    return Modules.of(c.getPackageName()).filter(module::equals).isPresent()
                            ? SliceIdentifier.of(c.getPackageName()) : SliceIdentifier.ignore();
                }

                @Override
                public String getDescription() {
                    return "the packages of " + module.artifact();
                }
            };
            assertThat(Slices.assignedFrom(byPackage).transform(classes)).as("packages of %s", module.artifact()).isNotEmpty();
            slices().assignedFrom(byPackage).should().beFreeOfCycles().check(classes);
        }));
    }

    @Test
    void theEngineIsReachedFromCoreOnly() {
        noClasses().that().resideOutsideOfPackage("dev.threadline.core..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.threadline.core.internal.engine..", "dev.threadline.core.internal.state..")
                .check(classes);
    }

    @Test
    void adaptersModelsServerAndBenchUseOnlyCoresPublicApi() {
        noClasses().that(DescribedPredicate.describe("are in " + ON_THE_PUBLIC_API,
                        (JavaClass c) -> Modules.of(c.getPackageName()).map(m -> ON_THE_PUBLIC_API.contains(m.artifact())).orElse(false)))
                .should().dependOnClassesThat().resideInAPackage("dev.threadline.core.internal..")
                .check(classes);
    }

    @Test
    void aModulesInternalPackagesAreItsOwnExceptCoresQualifiedExports() {
        classes().that().resideInAPackage("dev.threadline..").should(new ArchCondition<>("use no other module's internal package") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                Module from = Modules.of(origin.getPackageName()).orElse(null);
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    String target = d.getTargetClass().getPackageName();
                    Optional<Module> to = Modules.of(target);
                    if (to.isEmpty() || to.get().equals(from) || !isInternal(to.get(), target)) {
                        continue;
                    }
                    Set<String> sharedWith = Modules.SHARED_INTERNALS.get(target);
                    if (sharedWith == null || from == null || !sharedWith.contains(from.artifact())) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
            }
        }).check(classes);
    }

    /**
     * Every module but these has a module-info: the applications (they are launched on the class path) and the
     * MCP skills, whose SDK declares module names the JDK refuses (docs/migration.md, "Modules").
     */
    private static final Set<String> WITHOUT_DESCRIPTOR = Set.of("threadline-cli", "threadline-bench", "threadline-mcp");

    @TestFactory
    Stream<DynamicTest> everyLibraryModuleHasADescriptorNamedLikeItsRoot() {
        return Modules.ALL.stream().map(module -> DynamicTest.dynamicTest(module.artifact(), () -> {
            Optional<String> descriptor = descriptor(module);
            if (WITHOUT_DESCRIPTOR.contains(module.artifact())) {
                assertThat(descriptor).as("%s has a module-info now: take it off WITHOUT_DESCRIPTOR", module.artifact()).isEmpty();
                return;
            }
            assertThat(descriptor).as("module-info.java of %s", module.artifact()).isPresent();
            assertThat(descriptor.get()).as("module name").containsPattern("(?m)^\\s*(open\\s+)?module\\s+" + Pattern.quote(module.root()) + "\\s*\\{");
        }));
    }

    /**
     * A descriptor's exports bind the modules that use it on the class path too (the CLI and the bench run there,
     * where the JVM checks nothing): a class uses another module's package only if that module has no
     * module-info, or exports the package to all or to the class's module.
     */
    @Test
    void otherModulesUseOnlyWhatAModuleInfoExports() {
        Map<Module, Map<String, Set<String>>> exports = new java.util.HashMap<>();
        for (Module m : Modules.ALL) {
            descriptor(m).ifPresent(text -> exports.put(m, exportsOf(text)));
        }
        classes().that().resideInAPackage("dev.threadline..").should(new ArchCondition<>("use only the packages other modules export to them") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                Optional<Module> from = Modules.of(origin.getPackageName());
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    String target = d.getTargetClass().getPackageName();
                    Optional<Module> to = Modules.of(target);
                    if (to.isEmpty() || to.equals(from) || !exports.containsKey(to.get())) {
                        continue;
                    }
                    Set<String> toModules = exports.get(to.get()).get(target);
                    boolean exported = toModules != null && (toModules.isEmpty() || from.map(f -> toModules.contains(f.root())).orElse(false));
                    if (!exported) {
                        events.add(SimpleConditionEvent.violated(d, to.get().artifact() + "'s module-info does not export " + target
                                + (from.isPresent() ? " to " + from.get().root() : "") + ": " + d.getDescription()));
                    }
                }
            }
        }).check(classes);
    }

    /** The text of a module's {@code src/main/java/module-info.java}, comments removed, if it has one. */
    private static Optional<String> descriptor(Module module) {
        Path file = Path.of("..", module.artifact(), "src", "main", "java", "module-info.java");
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", ""));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A descriptor's exported packages, each with the modules it is exported to (empty: to all). */
    private static Map<String, Set<String>> exportsOf(String descriptor) {
        Map<String, Set<String>> exports = new java.util.HashMap<>();
        Matcher m = Pattern.compile("\\bexports\\s+([\\w.]+)\\s*(?:to\\s+([\\w.,\\s]+?))?\\s*;").matcher(descriptor);
        while (m.find()) {
            exports.put(m.group(1), m.group(2) == null ? Set.of()
                    : Set.copyOf(Stream.of(m.group(2).split(",")).map(String::strip).toList()));
        }
        return exports;
    }

    private static boolean isInternal(Module module, String packageName) {
        return packageName.equals(module.root() + ".internal") || packageName.startsWith(module.root() + ".internal.");
    }

    private static ArchCondition<JavaClass> useOnlyTheModulesTheirModuleDependsOn() {
        return new ArchCondition<>("use only the modules their module depends on") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                Optional<Module> from = Modules.of(origin.getPackageName());
                if (from.isEmpty()) {
                    events.add(SimpleConditionEvent.violated(origin, origin.getName() + " is in no module of the table (Modules.ALL)"));
                    return;
                }
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    Optional<Module> to = Modules.of(d.getTargetClass().getPackageName());
                    if (to.isPresent() && !to.get().equals(from.get()) && !from.get().uses().contains(to.get().artifact())) {
                        events.add(SimpleConditionEvent.violated(d, from.get().artifact() + " does not depend on "
                                + to.get().artifact() + ": " + d.getDescription()));
                    }
                }
            }
        };
    }
}
