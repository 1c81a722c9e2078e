package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.StateStores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline sessions search ID QUERY} (issue 38) in a real process: the message that said it
 * first, with its seq; nothing found is one line; a query with no word and a bad limit are bad usage or
 * a refusal, one line each.
 */
class SearchFromTheCliTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void searchPrintsTheBestHitFirstAndRefusesBadInput() {
        String db = dir.resolve("s.db").toString();
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db)).model(ScriptedModel.demo()).build()) {
            var s = tl.defaultTenant().create("memo", SessionConfig.DEFAULT);
            s.submit("the door code is 4712");
            s.submit("what is 2+2");
        }
        CliChild cli = new CliChild(dir);
        CliTest.Run r = cli.run("sessions", "search", "memo", "door code", "--db", db, "--limit", "2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().findFirst().orElseThrow()).matches("seq \\d+  user  \\S+  the door code is 4712");
        assertThat(cli.run("sessions", "search", "memo", "zebra", "--db", db).out()).contains("Nothing in session memo matches \"zebra\".");
        CliTest.Run bad = cli.run("sessions", "search", "memo", "?!", "--db", db);
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err().strip()).doesNotContain("\n").contains("no word");
        assertThat(cli.run("sessions", "search", "memo", "door", "--db", db, "--limit", "0").code()).isNotZero();
        assertThat(cli.run("sessions", "search", "nope", "door", "--db", db).code()).isEqualTo(1);
    }

    @Test
    void anEmptyAHugeQueryAndAnotherTenantsSessionAreOneLineErrorsThatChangeNothing() {
        String db = dir.resolve("t.db").toString();
        long head;
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db)).model(ScriptedModel.demo()).build()) {
            var s = tl.defaultTenant().create("memo", SessionConfig.DEFAULT);
            s.submit("the door code is 4712");
            head = s.state().seq();
        }
        CliChild cli = new CliChild(dir);
        CliTest.Run empty = cli.run("sessions", "search", "memo", "", "--db", db);
        assertThat(empty.code()).isNotZero();
        assertThat(empty.err().strip()).doesNotContain("\n").contains("query");
        CliTest.Run huge = cli.run("sessions", "search", "memo", "door ".repeat(2_000), "--db", db);
        assertThat(huge.code()).isNotZero();
        assertThat(huge.err().strip()).doesNotContain("\n").contains("query").contains("10000 characters").contains("1000");
        CliTest.Run foreign = cli.run("sessions", "search", "memo", "door", "--db", db, "--tenant", "globex");
        assertThat(foreign.code()).isEqualTo(1);
        assertThat(foreign.err()).contains("no session with id 'memo'").doesNotContain("4712");
        assertThat(foreign.out()).doesNotContain("4712");
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db)).model(ScriptedModel.demo()).build()) {
            assertThat(tl.defaultTenant().open("memo").state().seq()).as("bad searches change nothing").isEqualTo(head);
        }
    }
}
