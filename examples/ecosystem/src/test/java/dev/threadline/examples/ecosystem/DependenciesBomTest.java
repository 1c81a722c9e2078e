package dev.threadline.examples.ecosystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * threadline-dependencies publishes the versions Threadline is tested with: each version property it shares
 * with the build's poms (the root's, each module's) has the same value there, and the examples' parent
 * converges with that one import (and JUnit's) and no version of its own.
 */
class DependenciesBomTest {
    private static final Path ROOT = Path.of(System.getProperty("threadline.root", "../..")).toAbsolutePath().normalize();
    private static final Pattern PROPERTY = Pattern.compile("<([a-z0-9.-]+\\.version)>([^<$]+)</\\1>");
    /** Properties that differ on purpose, and why. */
    private static final Map<String, String> DIFFERENT = Map.of(
            "jackson.version", "the frameworks ask for a higher Jackson 2 than the modules build on; the examples run them on it");

    private static Map<String, String> properties(Path pom) throws IOException {
        Map<String, String> found = new LinkedHashMap<>();
        Matcher m = PROPERTY.matcher(Files.readString(pom));
        while (m.find()) {
            found.put(m.group(1), m.group(2));
        }
        return found;
    }

    @Test
    void everyVersionItSharesWithTheBuildIsTheBuildsOwn() throws IOException {
        Map<String, String> published = properties(ROOT.resolve("threadline-dependencies/pom.xml"));
        List<Path> poms = new ArrayList<>(List.of(ROOT.resolve("pom.xml")));
        try (Stream<Path> modules = Files.list(ROOT)) {
            modules.filter(d -> d.getFileName().toString().startsWith("threadline-")
                            && !d.getFileName().toString().equals("threadline-dependencies"))
                    .map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).sorted().forEach(poms::add);
        }
        int compared = 0;
        for (Path pom : poms) {
            for (var e : properties(pom).entrySet()) {
                String ours = published.get(e.getKey());
                if (ours != null && !DIFFERENT.containsKey(e.getKey())) {
                    assertEquals(e.getValue(), ours, e.getKey() + " in " + ROOT.relativize(pom) + " and in threadline-dependencies");
                    compared++;
                }
            }
        }
        assertTrue(compared >= 12, "compared only " + compared + " versions");
        for (String framework : List.of("google-adk.version", "spring-ai.version", "langgraph4j.version", "mcp.version",
                "langchain4j.version", "json-schema-validator.version", "jackson3.version", "slf4j.version")) {
            assertTrue(published.containsKey(framework), framework + " is not published");
        }
    }

    @Test
    void theExamplesImportItAndManageNoVersionOfTheirOwn() throws IOException {
        String parent = Files.readString(ROOT.resolve("examples/pom.xml"));
        String managed = parent.substring(parent.indexOf("<dependencyManagement>"), parent.indexOf("</dependencyManagement>"));
        List<String> artifacts = new ArrayList<>();
        Matcher m = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(managed);
        while (m.find()) {
            artifacts.add(m.group(1));
        }
        assertEquals(List.of("threadline-dependencies", "junit-bom"), artifacts);
        try (Stream<Path> poms = Files.list(ROOT.resolve("examples"))) {
            for (Path pom : poms.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
                String deps = Files.readString(pom).replaceAll("(?s)<parent>.*?</parent>", "")
                        .replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "");
                deps = deps.substring(deps.indexOf("<dependencies>"), deps.indexOf("</dependencies>"));
                assertTrue(!deps.contains("<version>"), ROOT.relativize(pom) + " gives a dependency a version of its own");
            }
        }
    }
}
