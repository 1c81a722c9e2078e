package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.store.StateStores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline sessions replay ID --model M} (issue 29 item 4) in a real process: each turn compared,
 * the calculate call answered from the record, the report as text and as JSON; an unknown model and a
 * range with no turn are refused in one line and make no branch.
 */
class ReplayFromTheCliTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void replayPrintsAComparisonPerTurnAndRefusesBadInput() throws Exception {
        String db = dir.resolve("s.db").toString();
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db)).model(ScriptedModel.demo())
                .skills(Builtins.all(dir)).build()) {
            var s = tl.defaultTenant().create("memo", SessionConfig.DEFAULT);
            s.submit("hello");
            s.submit("what is (2+3)*7");
        }
        CliChild cli = new CliChild(dir);
        CliTest.Run r = cli.run("sessions", "replay", "memo", "--model", "scripted", "--db", db);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Replayed 2 turn(s) of session memo on scripted (branch memo.replay1): 0 replies changed.")
                .contains("user: what is (2+3)*7").contains("reply: the same")
                .contains("calculate{\"expression\":\"(2+3)*7\"} ran  ->  calculate{\"expression\":\"(2+3)*7\"} recorded")
                .contains("outcome: completed  ->  completed");

        CliTest.Run json = cli.run("sessions", "replay", "memo", "--model", "scripted", "--json", "--db", db);
        assertThat(json.code()).as(json.err()).isZero();
        JsonNode report = Json.parse(json.out().strip(), "report");
        assertThat(report.path("branchId").asText()).isEqualTo("memo.replay2");
        assertThat(report.path("turns")).hasSize(2);

        java.nio.file.Path prices = dir.resolve("prices.json");
        java.nio.file.Files.writeString(prices, "{\"scripted\": {\"input\": 1000000, \"output\": 1000000}}");
        CliTest.Run priced = cli.run("sessions", "replay", "memo", "--model", "scripted", "--prices", prices.toString(), "--db", db);
        assertThat(priced.code()).as(priced.err()).isZero();
        // one currency unit per token: the replay's cost is its tokens; the original was recorded without prices
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("tokens in/out: \\d+/\\d+  ->  (\\d+)/(\\d+)   cost: 0  ->  (\\d+)")
                .matcher(priced.out());
        assertThat(m.find()).as(priced.out()).isTrue();
        assertThat(Long.parseLong(m.group(3))).isEqualTo(Long.parseLong(m.group(1)) + Long.parseLong(m.group(2)));

        CliTest.Run unknown = cli.run("sessions", "replay", "memo", "--model", "no-such-model", "--db", db);
        assertThat(unknown.code()).isNotZero();
        assertThat(unknown.err().strip()).doesNotContain("\n").contains("no-such-model");
        CliTest.Run empty = cli.run("sessions", "replay", "memo", "--model", "scripted", "--from", "9000", "--db", db);
        assertThat(empty.code()).isNotZero();
        assertThat(empty.err().strip()).doesNotContain("\n").contains("no user turn");
        assertThat(cli.run("sessions", "replay", "memo", "--model", "scripted", "--from", "9", "--to", "3", "--db", db).code())
                .isNotZero();
        assertThat(cli.run("sessions", "list", "--db", db).out()).doesNotContain("memo.replay4");
    }
}
