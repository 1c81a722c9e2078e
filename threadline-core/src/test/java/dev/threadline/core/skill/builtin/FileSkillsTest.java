package dev.threadline.core.skill.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.SkillResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSkillsTest {
    @TempDir
    Path tmp;
    Path ws;
    Path outside;
    ReadFileSkill read;
    ListFilesSkill list;

    @BeforeEach
    void layout() throws IOException {
        ws = Files.createDirectory(tmp.resolve("ws"));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "TOP SECRET");
        Files.writeString(ws.resolve("a.txt"), "hello\n");
        Files.writeString(ws.resolve("B.md"), "# B");
        Files.createDirectories(ws.resolve("sub"));
        Files.writeString(ws.resolve("sub/inner.txt"), "inner");
        Files.createDirectory(ws.resolve("empty"));
        Files.write(ws.resolve("bin.dat"), new byte[] {1, 2, 0, 3});
        Files.createSymbolicLink(ws.resolve("link-out"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(ws.resolve("dirlink-out"), outside);
        Files.createSymbolicLink(ws.resolve("link-in"), ws.resolve("a.txt"));
        Files.createSymbolicLink(ws.resolve("dangling"), outside.resolve("nothing"));
        read = new ReadFileSkill(ws);
        list = new ListFilesSkill(ws);
    }

    private SkillResult read(String path) {
        return read.execute(Contexts.of(Json.write(java.util.Map.of("path", path))));
    }

    private SkillResult list(String path) {
        return list.execute(Contexts.of(path == null ? "{}" : Json.write(java.util.Map.of("path", path))));
    }

    private static void refused(SkillResult r, String path, String why) {
        assertThat(r.isError()).as(r.content()).isTrue();
        assertThat(r.content()).contains("'" + path + "'").contains(why).doesNotContain("TOP SECRET");
    }

    @Test
    void readsFilesInsideTheWorkspace() {
        assertThat(read("a.txt").content()).isEqualTo("hello\n");
        assertThat(read("sub/inner.txt").content()).isEqualTo("inner");
        assertThat(read("sub/../a.txt").content()).isEqualTo("hello\n");
        assertThat(read("./sub/./inner.txt").content()).isEqualTo("inner");
        assertThat(read("link-in").content()).as("a link that stays inside").isEqualTo("hello\n");
    }

    @Test
    void refusesEveryWayOut() {
        refused(read("../outside/secret.txt"), "../outside/secret.txt", "outside the workspace");
        refused(read("sub/../../outside/secret.txt"), "sub/../../outside/secret.txt", "outside the workspace");
        refused(read(".."), "..", "outside the workspace");
        refused(read(outside.resolve("secret.txt").toString()), outside.resolve("secret.txt").toString(), "absolute path");
        refused(read(ws.resolve("a.txt").toString()), ws.resolve("a.txt").toString(), "absolute path");
        refused(read("/etc/passwd"), "/etc/passwd", "absolute path");
        refused(read("link-out"), "link-out", "symbolic link");
        refused(read("dirlink-out/secret.txt"), "dirlink-out/secret.txt", "symbolic link");
        refused(read("dirlink-out/missing.txt"), "dirlink-out/missing.txt", "symbolic link");
        refused(read("dangling"), "dangling", "symbolic link");
        assertThat(read("a\u0000b").content()).contains("NUL");
    }

    @Test
    void explainsMissingFilesDirectoriesAndBinaries() {
        refused(read("missing.txt"), "missing.txt", "no such file");
        refused(read("sub/none/deeper.txt"), "sub/none/deeper.txt", "no such file");
        refused(read("sub"), "sub", "is a directory; use list_files");
        refused(read("bin.dat"), "bin.dat", "binary");
    }

    @Test
    void invalidUtf8IsTreatedAsBinary() throws IOException {
        Files.write(ws.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});
        refused(read("latin1.txt"), "latin1.txt", "not UTF-8");
    }

    @Test
    void emptyFilesSaySo() throws IOException {
        Files.createFile(ws.resolve("nothing.txt"));
        assertThat(read("nothing.txt").content()).isEqualTo("('nothing.txt' is empty)");
    }

    @Test
    void largeFilesAreCutAtACharacterBoundaryWithANote() throws IOException {
        String euro = "\u20ac"; // 3 bytes in UTF-8; 256 KiB is not a multiple of 3
        Files.writeString(ws.resolve("big.txt"), euro.repeat(100_000), StandardCharsets.UTF_8);
        SkillResult r = read("big.txt");
        assertThat(r.isError()).isFalse();
        String[] parts = r.content().split("\n\n\\[read_file: ");
        assertThat(parts[0]).matches("\u20ac+").hasSize(ReadFileSkill.MAX_BYTES / 3);
        assertThat(parts[1]).contains("300000 bytes").contains("first " + (ReadFileSkill.MAX_BYTES / 3 * 3));
    }

    @Test
    void aFileOfExactlyTheLimitIsWhole() throws IOException {
        Files.writeString(ws.resolve("exact.txt"), "x".repeat(ReadFileSkill.MAX_BYTES));
        assertThat(read("exact.txt").content()).hasSize(ReadFileSkill.MAX_BYTES).doesNotContain("[read_file");
    }

    @Test
    void listsSortedWithDirectoriesMarked() {
        String expected = String.join("\n", "B.md", "a.txt", "bin.dat", "dangling", "dirlink-out/", "empty/",
                "link-in", "link-out", "sub/");
        assertThat(list(".").content()).isEqualTo(expected);
        assertThat(list(null).content()).as("defaults to the workspace").isEqualTo(expected);
        assertThat(list("sub").content()).isEqualTo("inner.txt");
        assertThat(list("sub/").content()).isEqualTo("inner.txt");
        assertThat(list("empty").content()).isEqualTo("('empty' is empty)");
    }

    @Test
    void listRefusesEscapesAndFiles() {
        refused(list(".."), "..", "outside the workspace");
        refused(list("sub/../.."), "sub/../..", "outside the workspace");
        refused(list("/"), "/", "absolute path");
        refused(list("dirlink-out"), "dirlink-out", "symbolic link");
        refused(list("a.txt"), "a.txt", "is a file, not a directory");
        refused(list("nope"), "nope", "no such directory");
    }

    @Test
    void theWorkspaceMustBeAnExistingDirectory() throws IOException {
        assertThatThrownBy(() -> new Workspace(tmp.resolve("absent"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("does not exist");
        Path file = Files.writeString(tmp.resolve("f"), "x");
        assertThatThrownBy(() -> new Workspace(file)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("not a directory");
    }

    @Test
    void aWorkspaceReachedThroughALinkStillWorks() throws IOException {
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), ws);
        assertThat(new ReadFileSkill(alias).execute(Contexts.of("{\"path\":\"a.txt\"}")).content()).isEqualTo("hello\n");
        assertThat(new Workspace(alias).root()).isEqualTo(ws.toRealPath());
    }
}
