package dev.threadline.harness.docs;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snippet check passes on a snippet that is the region and fails, saying what differs, on one that is not. */
class DocSnippetsTest {
    private static final String SOURCE = """
            import java.util.List;

            class Example {
                void run() {
                    int before = 0;
                    // snippet: demo
                    List<String> names = List.of("a", "b");

                    System.out.println(names);
                    // end snippet
                }
            }
            """;

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String doc(String... code) {
        return "# Demo\n\nSome prose.\n\n<!-- snippet: demo -->\n```java\n" + String.join("\n", code) + "\n```\n\nMore prose.\n";
    }

    @Test
    void theRegionIndentationAndBlankEdgesAsideMatches() throws IOException {
        Path source = write("Example.java", SOURCE);
        Path doc = write("doc.md", doc("import java.util.List;", "", "List<String> names = List.of(\"a\", \"b\");", "",
                "System.out.println(names);", ""));
        assertThatCode(() -> DocSnippets.assertSnippetIsCompiled(doc, "demo", source)).doesNotThrowAnyException();
    }

    @Test
    void aChangedLineFailsShowingBoth() throws IOException {
        Path source = write("Example.java", SOURCE);
        Path doc = write("doc.md", doc("List<String> names = List.of(\"a\", \"c\");", "", "System.out.println(names);"));
        assertThatThrownBy(() -> DocSnippets.assertSnippetIsCompiled(doc, "demo", source)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("is not the code of").hasMessageContaining("List.of(\"a\", \"c\")");
    }

    @Test
    void aMissingOrDroppedLineFails() throws IOException {
        Path source = write("Example.java", SOURCE);
        Path doc = write("doc.md", doc("List<String> names = List.of(\"a\", \"b\");"));
        assertThatThrownBy(() -> DocSnippets.assertSnippetIsCompiled(doc, "demo", source)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("is not the code of");
    }

    @Test
    void anImportTheSourceDoesNotHaveFails() throws IOException {
        Path source = write("Example.java", SOURCE);
        Path doc = write("doc.md", doc("import java.util.Map;", "", "List<String> names = List.of(\"a\", \"b\");", "",
                "System.out.println(names);"));
        assertThatThrownBy(() -> DocSnippets.assertSnippetIsCompiled(doc, "demo", source)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("import java.util.Map;");
    }

    @Test
    void anUnmarkedDocOrSourceFails() throws IOException {
        Path source = write("Example.java", SOURCE);
        Path doc = write("doc.md", doc("System.out.println(names);"));
        assertThatThrownBy(() -> DocSnippets.assertSnippetIsCompiled(doc, "other", source)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("no ```java block marked <!-- snippet: other -->");
        Path unmarked = write("Unmarked.java", SOURCE.replace("// snippet: demo", ""));
        assertThatThrownBy(() -> DocSnippets.assertSnippetIsCompiled(doc, "demo", unmarked)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("has no region // snippet: demo");
    }
}
