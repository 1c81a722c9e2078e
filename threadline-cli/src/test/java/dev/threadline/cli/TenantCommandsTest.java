package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.store.StateStores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 6: sessions an adapter writes with {@code tenant("acme")} are seen, resumed, exported
 * and deleted from the CLI with {@code --tenant acme}, in real {@code threadline} processes; a
 * malformed tenant id is one line of bad usage and creates nothing.
 */
class TenantCommandsTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private String db() {
        return dir.resolve("t.db").toString();
    }

    /** What an application does through an adapter's tenant("acme"): a session with a note, beside one of the default tenant. */
    private void seed() {
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db())).model(ScriptedModel.demo())
                .skills(Builtins.all(dir)).build()) {
            tl.tenant("acme").create("memo", SessionConfig.DEFAULT).submit("note buy milk");
            tl.defaultTenant().create("mine", SessionConfig.DEFAULT).submit("what is 1+1");
        }
    }

    @Test
    void everySessionCommandAndChatWorkOnTheTenantNamed() {
        seed();
        CliChild cli = new CliChild(dir);

        CliTest.Run plain = cli.run("sessions", "list", "--db", db());
        assertThat(plain.code()).isZero();
        assertThat(plain.out()).contains("mine").doesNotContain("memo");
        CliTest.Run acme = cli.run("sessions", "list", "--db", db(), "--tenant", "acme");
        assertThat(acme.code()).as(acme.err()).isZero();
        assertThat(acme.out()).containsPattern("(?m)^memo +idle ").doesNotContain("mine");
        assertThat(acme.err()).isEmpty();
        assertThat(cli.run("sessions", "list", "--db", db(), "--tenant", "nobody").out())
                .contains("No sessions of tenant nobody in sqlite:" + db());

        CliTest.Run show = cli.run("sessions", "show", "memo", "--db", db(), "--tenant", "acme");
        assertThat(show.code()).as(show.err()).isZero();
        assertThat(show.out()).contains("note buy milk");
        CliTest.Run export = cli.run("sessions", "export", "memo", "--db", db(), "--tenant", "acme");
        assertThat(export.code()).isZero();
        assertThat(export.out()).contains("\"SessionCreated\"").contains("\"acme\"");

        CliTest.Run chat = cli.run(new String[] {"/vars", "notes", "/exit"}, "chat", "--model", "scripted", "--db", db(),
                "--tenant", "acme", "--session", "memo");
        assertThat(chat.code()).as(chat.err()).isZero();
        assertThat(chat.out()).contains("session memo (resumed, ").contains(" - tenant acme")
                .contains("meeting_notes = [\"buy milk\"]");
        assertThat(chat.err()).isEmpty();

        CliTest.Run delete = cli.run("sessions", "delete", "memo", "--db", db(), "--tenant", "acme");
        assertThat(delete.code()).isZero();
        assertThat(delete.out()).contains("Deleted session memo of tenant acme.");
        assertThat(cli.run("sessions", "list", "--db", db(), "--tenant", "acme").out()).contains("No sessions of tenant acme");
        assertThat(cli.run("sessions", "list", "--db", db()).out()).contains("mine");
    }

    @Test
    void aMalformedTenantIsOneLineOfBadUsageAndChangesNothing() {
        seed();
        CliChild cli = new CliChild(dir);
        for (String[] args : new String[][] {{"sessions", "list"}, {"sessions", "show", "memo"}, {"sessions", "export", "memo"},
                {"sessions", "delete", "memo"}}) {
            String[] full = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                    java.util.stream.Stream.of("--db", db(), "--tenant", "acme corp")).toArray(String[]::new);
            CliTest.Run r = cli.run(full);
            assertThat(r.code()).as(String.join(" ", full)).isEqualTo(2);
            assertThat(r.out()).isBlank();
            assertThat(r.err().lines().findFirst().orElseThrow()).startsWith("threadline: invalid --tenant: 'acme corp' is not a valid id");
        }
        Path fresh = dir.resolve("fresh.db");
        CliTest.Run chat = cli.run(new String[] {"hello", "/exit"}, "chat", "--model", "scripted", "--db", fresh.toString(),
                "--tenant", "-x");
        assertThat(chat.code()).isEqualTo(2);
        assertThat(chat.err()).contains("invalid --tenant");
        assertThat(fresh).doesNotExist();
        assertThat(cli.run("sessions", "list", "--db", db(), "--tenant", "acme").out()).contains("memo");
    }
}
