package dev.threadline.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** threadline-bom names every library module of the build, at the build's version, and nothing else. */
class BomTest {
    /**
     * Modules that are applications or BOMs, not libraries: not in the BOM (examples: the runnable examples, behind
     * -P examples; threadline-dependencies imports this BOM and adds third-party versions).
     */
    static final List<String> APPLICATIONS = List.of("threadline-cli", "threadline-bench", "threadline-bom",
            "threadline-dependencies", "threadline-architecture", "examples");

    private static List<String> all(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        List<String> found = new java.util.ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void theBomListsEveryLibraryModuleAtTheProjectVersion() throws Exception {
        String parent = Files.readString(Path.of("..", "pom.xml"));
        String bom = Files.readString(Path.of("..", "threadline-bom", "pom.xml"));
        List<String> libraries = all(parent, "<module>([^<]+)</module>").stream().filter(m -> !APPLICATIONS.contains(m)).toList();
        assertThat(libraries).contains("threadline-core", "threadline-store-sqlite");
        assertThat(all(bom, "<artifactId>(threadline-[^<]+)</artifactId>")).containsExactlyInAnyOrderElementsOf(
                java.util.stream.Stream.concat(libraries.stream(), java.util.stream.Stream.of("threadline-bom")).toList());
        String version = all(parent, "<artifactId>threadline-parent</artifactId>\\s*<version>([^<]+)</version>").get(0);
        assertThat(all(bom, "<artifactId>threadline-bom</artifactId>\\s*<version>([^<]+)</version>")).containsExactly(version);
        assertThat(bom).doesNotContain("<parent>");
    }
}
