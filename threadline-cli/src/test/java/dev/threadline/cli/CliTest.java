package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real CLI (picocli, SQLite file, demo model) with scripted input, as a user would pipe it. */
class CliTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    private Run run(String input, String... args) {
        if (args[0].equals("chat") && !Arrays.asList(args).contains("--model")) {
            // the default model follows ANTHROPIC_API_KEY / OPENAI_API_KEY: pin the offline one
            String[] pinned = new String[args.length + 2];
            pinned[0] = "chat";
            pinned[1] = "--model";
            pinned[2] = "scripted";
            System.arraycopy(args, 1, pinned, 3, args.length - 1);
            args = pinned;
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private String db() {
        return dir.resolve("x.db").toString();
    }

    @Test
    void aScriptedChatAnswersRecordsTheNoteAndIsThereOnTheNextRun() {
        Run first = run("what is (2+3)*4\nnote buy milk\n/exit\n", "chat", "--db", db(), "--session", "s1");
        assertThat(first.code()).isZero();
        assertThat(first.out()).contains("-> calculate").contains("= 20").contains("Noted (1 note): buy milk");

        Run second = run("/history\n/vars\n", "chat", "--db", db(), "--session", "s1");
        assertThat(second.code()).isZero();
        assertThat(second.out()).contains("resumed").contains("[1] you: what is (2+3)*4").contains("[2] you: note buy milk")
                .contains("meeting_notes = [\"buy milk\"]");

        Run export = run("", "sessions", "export", "s1", "--db", db());
        assertThat(export.code()).isZero();
        List<JsonNode> lines = Arrays.stream(export.out().split("\n")).map(l -> Json.parse(l, "line")).toList();
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i).get("seq").asLong()).isEqualTo(i + 1);
        }
        assertThat(lines).extracting(l -> l.at("/event/type").asText())
                .contains("SessionCreated", "UserMessageReceived", "ToolCallCompleted", "VariablesChanged", "TurnCompleted");
    }

    @Test
    void rewindFromTheReplContinuesOnANewBranchAndKeepsTheOldOne() {
        run("hello\nwhat is 1+1\n/exit\n", "chat", "--db", db(), "--session", "s1");
        Run r = run("/rewind 4\nwhat is 2+2\n/history\n", "chat", "--db", db(), "--session", "s1");
        assertThat(r.out()).contains("now on branch s1.r1").contains("= 4");
        Run list = run("", "sessions", "list", "--db", db());
        assertThat(list.out()).contains("s1 ").contains("s1.r1").contains("rewind of s1 at seq 4");
        Run old = run("/history\n", "chat", "--db", db(), "--session", "s1");
        assertThat(old.out()).contains("what is 1+1").doesNotContain("what is 2+2");
    }

    @Test
    void badInputGetsAClearErrorAndChangesNothing() {
        run("hello\n", "chat", "--db", db(), "--session", "s1");
        String before = run("", "sessions", "export", "s1", "--db", db()).out();

        Run r = run("/rewind 999\n/rewind x\n/resume nosuch\n/frobnicate\n", "chat", "--db", db(), "--session", "s1");
        assertThat(r.err()).contains("error: invalid seq: 999 is not a checkpoint")
                .contains("'x' is not a checkpoint seq")
                .contains("no session with id 'nosuch'")
                .contains("unknown command /frobnicate");
        assertThat(run("", "sessions", "export", "s1", "--db", db()).out()).isEqualTo(before);

        Run show = run("", "sessions", "show", "nosuch", "--db", db());
        assertThat(show.code()).isEqualTo(1);
        assertThat(show.err()).contains("no session with id 'nosuch'");

        Run badId = run("", "chat", "--db", db(), "--session", "../etc");
        assertThat(badId.code()).isEqualTo(1);
        assertThat(badId.err()).contains("not a valid id");
    }

    @Test
    void deleteRemovesASessionButNotOneWithBranches() {
        run("hello\n", "chat", "--db", db(), "--session", "s1");
        run("/fork 1\n", "chat", "--db", db(), "--session", "s1");
        Run refused = run("", "sessions", "delete", "s1", "--db", db());
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("has branches [s1.f1]");
        assertThat(run("", "sessions", "delete", "s1.f1", "--db", db()).code()).isZero();
        assertThat(run("", "sessions", "delete", "s1", "--db", db()).code()).isZero();
        assertThat(run("", "sessions", "list", "--db", db()).out()).contains("No sessions");
    }

    /** Creates root session {@code id} of {@code tenant} in the test's SQLite file, expiring at {@code expiresAt} (null: never). */
    private void stored(String tenant, String id, java.time.Instant expiresAt, boolean leased) {
        try (var store = dev.threadline.store.sqlite.SqliteStateStore.open(Path.of(db()))) {
            var info = new dev.threadline.core.session.SessionInfo(id, tenant, "local", dev.threadline.core.session.SessionConfig.DEFAULT,
                    java.util.Map.of(), java.time.Instant.now(), expiresAt, null, 0);
            store.create(info, List.of(new dev.threadline.core.event.StoredEvent(id, 1, 1, java.time.Instant.now(), "c-" + id,
                    dev.threadline.core.event.CheckpointSource.LOOP, new dev.threadline.core.event.Event.SessionCreated(info))));
            if (leased) {
                store.acquire(dev.threadline.core.store.SessionKey.of(info), "another-process", java.time.Duration.ofMinutes(10), null);
            }
        }
    }

    @Test
    void sweepRemovesTheExpiredSessionsOfEveryTenantButNotALeasedOne() {
        java.time.Instant past = java.time.Instant.now().minus(java.time.Duration.ofHours(1));
        stored("default", "old", past, false);
        stored("acme", "old-too", past, false);
        stored("default", "busy", past, true);
        stored("default", "fresh", java.time.Instant.now().plus(java.time.Duration.ofDays(1)), false);
        stored("default", "forever", null, false);

        Run sweep = run("", "sessions", "sweep", "--db", db());
        assertThat(sweep.code()).as(sweep.err()).isZero();
        assertThat(sweep.out().strip()).isEqualTo("Swept sqlite:" + db() + ": removed 2, kept 1 leased (a turn may be running)"
                + " and 0 with live branches.");
        assertThat(run("", "sessions", "list", "--db", db()).out()).contains("busy").contains("fresh").contains("forever")
                .doesNotContain("old");
        assertThat(run("", "sessions", "list", "--db", db(), "--tenant", "acme").out()).contains("No sessions");
    }

    @Test
    void sweepRefusesABadLimitAndAMissingStore() {
        Run zero = run("", "sessions", "sweep", "--db", db(), "--limit", "0");
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.err()).startsWith("threadline: --limit must be 1 to 1000, was 0");
        Run word = run("", "sessions", "sweep", "--db", db(), "--limit", "many");
        assertThat(word.code()).isEqualTo(2);
        assertThat(word.err()).contains("--limit").contains("many");
        Run missing = run("", "sessions", "sweep", "--db", db());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("no store at").contains("nothing was created");
    }
}
