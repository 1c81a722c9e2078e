package dev.threadline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.error.DamagedArchiveException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.runtime.ExportReport;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SessionArchive}: export and import round trip; a damaged file is refused naming the line, and nothing is written. */
class SessionArchiveTest {
    private final StateStore source = new InMemoryStateStore();
    private final StateStore dest = new InMemoryStateStore();
    private final Threadline src = Threadline.builder().store(source).leaseLinger(Duration.ZERO)
            .model(ScriptedModel.of(req -> ScriptedModel.text("ack " + req.messages().getLast().text()))).build();
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        src.close();
    }

    private Path exported() throws Exception {
        Session a = src.tenant("acme").create(new NewSession("a", "u1", SessionConfig.DEFAULT, null, null));
        a.with(CommandOptions.id("req-1")).submit("hello");
        long at = a.history().journal().getLast().seq();
        a.edit("test", "vars", List.of(new Edit.SetVariable(VariableScope.USER, "colour", TextNode.valueOf("blue"))));
        a.with(CommandOptions.id("fork-1")).fork(at, "a-f").submit("on the fork");
        src.tenant("acme").create("b", SessionConfig.DEFAULT).submit("other");
        Path file = dir.resolve("acme.jsonl");
        try (Writer out = Files.newBufferedWriter(file)) {
            ExportReport r = SessionArchive.export(source, "acme", out);
            assertThat(r.sessions()).isEqualTo(3);
        }
        return file;
    }

    private void assertImported(List<String> ids) {
        for (String id : ids) {
            SessionKey k = new SessionKey("acme", id);
            assertThat(dest.session(k)).as(id).isEqualTo(source.session(k));
            assertThat(dest.readOwn(k, 1, dest.head(k))).as(id).isEqualTo(source.readOwn(k, 1, source.head(k)));
        }
    }

    @Test
    void anExportImportsWholeWithBranchesVariablesAndCommandRecordsAndARerunWritesNothing() throws Exception {
        Path file = exported();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines.getFirst()).isEqualTo("{\"kind\":\"threadline-export\",\"v\":1,\"tenant\":\"acme\"}");
        assertThat(lines).filteredOn(l -> l.startsWith("{\"kind\":\"end\",")).hasSize(3)
                .allMatch(l -> l.matches(".*\"sha256\":\"[0-9a-f]{64}\"}"));

        CopyReport r = SessionArchive.importFile(dest, file);

        assertImported(List.of("a", "a-f", "b"));
        assertThat(r.created()).isEqualTo(3);
        assertThat(r.commands()).isEqualTo(2);
        assertThat(dest.command(new SessionKey("acme", "a"), "fork-1")).isEqualTo(source.command(new SessionKey("acme", "a"), "fork-1"));
        assertThat(dest.variables(VariableScope.USER, ScopedWrite.userKey("acme", "u1"))).containsEntry("colour", TextNode.valueOf("blue"));
        CopyReport again = SessionArchive.importFile(dest, file);
        assertThat(again.unchanged()).isEqualTo(3);
        assertThat(again.events()).isZero();
    }

    @Test
    void aChangedByteIsRefusedNamingTheLineAndNothingIsWritten() throws Exception {
        Path file = exported();
        List<String> lines = Files.readAllLines(file);
        int victim = 4; // an event of the first session, "a"
        assertThat(lines.get(victim - 1)).contains("\"seq\":");
        lines.set(victim - 1, lines.get(victim - 1).replaceFirst("\"step\":(\\d)", "\"step\":7"));
        Files.write(file, lines, StandardCharsets.UTF_8);
        int trailer = lines.indexOf(lines.stream().filter(l -> l.contains("\"kind\":\"end\"")).findFirst().orElseThrow()) + 1;

        assertThatThrownBy(() -> SessionArchive.importFile(dest, file)).isInstanceOf(DamagedArchiveException.class)
                .hasMessage("line " + trailer + ": session 'a' (lines 2-" + (trailer - 1) + ") does not match its checksum;"
                        + " the file is damaged, nothing was imported")
                .extracting(e -> ((DamagedArchiveException) e).line()).isEqualTo((long) trailer);
        assertThat(dest.list(SessionQuery.tenant("acme")).items()).isEmpty();
    }

    @Test
    void aBrokenLineACutOffFileAndAnEmptyOneAreRefusedNamingTheLine() throws Exception {
        Path file = exported();
        List<String> lines = Files.readAllLines(file);

        Files.write(file, lines.subList(0, lines.size() - 1), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SessionArchive.importFile(dest, file)).hasMessageStartingWith("line " + lines.size()
                + ": the file ends before its last line (cut off?)");

        List<String> broken = new java.util.ArrayList<>(lines);
        broken.set(2, broken.get(2).substring(1));
        Files.write(file, broken, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SessionArchive.importFile(dest, file)).hasMessage("line 3: not a JSON object; the file is damaged, nothing was imported");

        Files.writeString(file, "");
        assertThatThrownBy(() -> SessionArchive.importFile(dest, file)).hasMessageStartingWith("line 1: the file is empty");
        assertThat(dest.list(SessionQuery.tenant("acme")).items()).isEmpty();
    }
}
