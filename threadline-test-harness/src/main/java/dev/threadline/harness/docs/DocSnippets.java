package dev.threadline.harness.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Java snippet of docs/integrations.md, marked {@code <!-- snippet: NAME -->} before its fence, against the
 * region of a compiled test source between {@code // snippet: NAME} and {@code // end snippet}: the snippet's
 * code lines are the region's (indentation aside) and each of its imports is one of the source's. So the
 * doc shows code the build compiles (and the test runs). Each module's {@code IntegrationsDocTest} checks its
 * snippets with it, run from the module's directory (so the doc is {@code ../docs/integrations.md}). Stateless.
 */
public final class DocSnippets {
    /** docs/integrations.md, from a module's directory (where surefire runs its tests). */
    public static final Path INTEGRATIONS = Path.of("..", "docs", "integrations.md");

    private DocSnippets() {}

    /**
     * Fails with what differs when the snippet {@code name} of docs/integrations.md is not the region of {@code source}.
     *
     * @throws IOException when the doc or the source cannot be read
     */
    public static void assertSnippetIsCompiled(String name, Path source) throws IOException {
        assertSnippetIsCompiled(INTEGRATIONS, name, source);
    }

    /**
     * Fails with what differs when the snippet {@code name} of the Markdown {@code doc} is not the region of {@code source}.
     *
     * @throws IOException when the doc or the source cannot be read
     */
    public static void assertSnippetIsCompiled(Path doc, String name, Path source) throws IOException {
        List<String> lines = Files.readAllLines(doc);
        int marker = lines.indexOf("<!-- snippet: " + name + " -->");
        if (marker < 0 || marker + 1 >= lines.size() || !lines.get(marker + 1).equals("```java")) {
            throw new AssertionError(doc + " has no ```java block marked <!-- snippet: " + name + " -->");
        }
        List<String> imports = new ArrayList<>();
        List<String> code = new ArrayList<>();
        for (String line : lines.subList(marker + 2, lines.size())) {
            if (line.equals("```")) {
                break;
            }
            (line.startsWith("import ") ? imports : code).add(line);
        }
        List<String> src = Files.readAllLines(source);
        int from = indexOfTrimmed(src, "// snippet: " + name);
        int to = indexOfTrimmed(src, "// end snippet");
        if (from < 0 || to < from) {
            throw new AssertionError(source + " has no region // snippet: " + name + " ... // end snippet");
        }
        String expected = String.join("\n", dedent(src.subList(from + 1, to)));
        String actual = String.join("\n", dedent(code));
        if (!expected.equals(actual)) {
            throw new AssertionError("the snippet '" + name + "' of " + doc + " is not the code of " + source
                    + "\n--- compiled:\n" + expected + "\n--- in the doc:\n" + actual);
        }
        for (String i : imports) {
            if (!src.contains(i)) {
                throw new AssertionError("the snippet '" + name + "' imports what " + source + " does not: " + i);
            }
        }
    }

    private static int indexOfTrimmed(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().equals(text)) {
                return i;
            }
        }
        return -1;
    }

    /** Without leading and trailing blank lines, without the indentation all lines share, trailing blanks cut. */
    private static List<String> dedent(List<String> lines) {
        List<String> kept = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
        while (!kept.isEmpty() && kept.getFirst().isEmpty()) {
            kept.removeFirst();
        }
        while (!kept.isEmpty() && kept.getLast().isEmpty()) {
            kept.removeLast();
        }
        int indent = kept.stream().filter(l -> !l.isEmpty())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return kept.stream().map(l -> l.isEmpty() ? l : l.substring(indent)).toList();
    }
}
