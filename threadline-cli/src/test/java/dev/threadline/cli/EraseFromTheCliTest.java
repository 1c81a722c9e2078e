package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.DataLifecycle;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.StateStores;
import dev.threadline.server.keys.KeyStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 items 3 and 4 from the CLI, in real {@code threadline} processes on a SQLite file: a held
 * user is refused and untouched; once the hold is lifted, {@code erase} removes the user's sessions
 * with their forks and variables, prints the receipt, and the canary text is in neither the database
 * file nor its WAL; {@code --all} takes the tenant's API keys too; bad usage is exit 2 and a subject
 * the store does not know is one line and exit 1.
 */
class EraseFromTheCliTest {
    private static final String CANARY = "canary-cli-51c2 ada's secret";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private String db() {
        return dir.resolve("e.db").toString();
    }

    private void seed() {
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db())).model(ScriptedModel.demo()).build()) {
            seedAda(tl);
            tl.tenant("acme").create(new NewSession("bob-1", "bob", SessionConfig.DEFAULT, Map.of(), null)).submit("hello");
            KeyStore.on(tl).create("acme");
        }
    }

    private void seedAda(Threadline tl) {
        Session ada = tl.tenant("acme").create(new NewSession("ada-1", "ada", SessionConfig.DEFAULT, Map.of("note", CANARY), null));
        ada.submit("remember " + CANARY);
        ada.edit("app", "note", List.of(new Edit.SetVariable(VariableScope.USER, "secret", TextNode.valueOf(CANARY))));
        ada.fork(2, "ada-1-fork").submit("again " + CANARY);
    }

    private boolean canaryInFiles() throws IOException {
        for (Path f : List.of(Path.of(db()), Path.of(db() + "-wal"))) {
            if (Files.exists(f) && new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(CANARY)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aHeldUserIsRefusedThenErasedWithAReceiptAndTheCanaryLeavesTheFiles() throws IOException {
        seed();
        CliChild cli = new CliChild(dir);
        assertThat(canaryInFiles()).as("the canary is written before the erasure").isTrue();

        CliTest.Run place = cli.run("holds", "place", "--db", db(), "--tenant", "acme", "--user", "ada", "--reason", "case 7", "--by", "legal");
        assertThat(place.code()).as(place.err()).isZero();
        assertThat(place.out()).contains("Placed a legal hold on user 'ada' of tenant 'acme' (case 7)").contains("by 'legal'");
        CliTest.Run refused = cli.run("erase", "--db", db(), "--tenant", "acme", "--user", "ada", "--by", "dpo");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err().strip()).doesNotContain("\n").contains("legal hold on user 'ada'").contains("case 7");
        assertThat(refused.out()).isBlank();
        assertThat(cli.run("sessions", "list", "--db", db(), "--tenant", "acme").out()).contains("ada-1-fork").contains("bob-1");
        assertThat(cli.run("holds", "list", "--db", db(), "--tenant", "acme").out()).contains("user 'ada' of tenant 'acme'  by legal: case 7");

        CliTest.Run before = cli.run("erase", "--verify", "--db", db(), "--tenant", "acme", "--user", "ada", "--text", CANARY);
        assertThat(before.code()).isEqualTo(1);
        assertThat(before.out()).contains("session 'ada-1-fork' of user 'ada' exists").contains("the file " + db() + " holds the text's bytes")
                .contains("place(s) still hold user 'ada' of tenant 'acme' or the text");

        CliTest.Run lift = cli.run("holds", "lift", "--db", db(), "--tenant", "acme", "--user", "ada", "--by", "legal");
        assertThat(lift.code()).as(lift.err()).isZero();
        CliTest.Run erase = cli.run("erase", "--db", db(), "--tenant", "acme", "--user", "ada", "--by", "dpo");
        assertThat(erase.code()).as(erase.err()).isZero();
        assertThat(erase.err()).isEmpty();
        JsonNode receipt = Json.parse(erase.out(), "receipt");
        assertThat(receipt.path("sessions").asInt()).isEqualTo(2);
        assertThat(receipt.path("userVariables").asInt()).isEqualTo(1);
        assertThat(receipt.path("complete").asBoolean()).isTrue();
        assertThat(receipt.path("by").asText()).isEqualTo("dpo");
        assertThat(receipt.path("subjectHash").asText()).isEqualTo(DataLifecycle.hash("acme", "ada"));
        assertThat(erase.out()).doesNotContain("ada-1").doesNotContain("\"ada\"");
        assertThat(canaryInFiles()).as("the canary's bytes are gone from the file and its WAL").isFalse();
        CliTest.Run list = cli.run("sessions", "list", "--db", db(), "--tenant", "acme");
        assertThat(list.out()).contains("bob-1").doesNotContain("ada-1");
        assertThat(cli.run("holds", "receipts", "--db", db(), "--tenant", "acme").out().strip().lines())
                .singleElement().asString().contains(receipt.path("id").asText());

        CliTest.Run after = cli.run("erase", "--verify", "--db", db(), "--tenant", "acme", "--user", "ada", "--text", CANARY);
        assertThat(after.code()).as(after.out()).isZero();
        assertThat(after.out()).contains("Nothing of user 'ada' of tenant 'acme' nor the text found in sqlite:" + db());
        CliTest.Run again = cli.run("erase", "--db", db(), "--tenant", "acme", "--user", "ada");
        assertThat(again.code()).isEqualTo(1);
        assertThat(again.err()).contains("user 'ada' of tenant 'acme' has nothing in sqlite:" + db() + "; nothing was erased");

        Path receipts = dir.resolve("receipts.jsonl");
        Files.writeString(receipts, cli.run("holds", "receipts", "--db", db(), "--tenant", "acme").out());
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db())).model(ScriptedModel.demo()).build()) {
            seedAda(tl); // what restoring an older backup brings back: ada's sessions under the same ids
        }
        CliTest.Run replayed = cli.run("erase", "--db", db(), "--replay", receipts.toString(), "--by", "ops");
        assertThat(replayed.code()).as(replayed.err()).isZero();
        assertThat(replayed.out()).contains(receipt.path("id").asText() + ": erased again as er-").contains("2 session(s), 1 user variable(s)");
        assertThat(canaryInFiles()).as("the replayed erasure scrubbed too").isFalse();
        assertThat(cli.run("erase", "--db", db(), "--replay", receipts.toString()).out()).contains(": nothing of it is in the store");
        Files.writeString(receipts, "{\"id\": 1}\n");
        CliTest.Run damaged = cli.run("erase", "--db", db(), "--replay", receipts.toString());
        assertThat(damaged.code()).isEqualTo(1);
        assertThat(damaged.err()).contains("line 1 of " + receipts + " is not an erasure receipt");

        assertThat(cli.run("webhooks", "add", "http://127.0.0.1:9/hook", "--tenant", "acme", "--db", db()).code()).isZero();
        CliTest.Run all = cli.run("erase", "--db", db(), "--tenant", "acme", "--all", "--by", "ops");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(Json.parse(all.out(), "receipt").path("apiKeys").asInt()).isEqualTo(1);
        assertThat(Json.parse(all.out(), "receipt").path("webhooks").asInt()).isEqualTo(1);
        assertThat(cli.run("webhooks", "list", "--db", db(), "--tenant", "acme").out()).isBlank();
        assertThat(cli.run("sessions", "list", "--db", db(), "--tenant", "acme").out()).contains("No sessions of tenant acme");
        assertThat(cli.run("keys", "list", "--db", db()).out()).doesNotContain("acme");
    }

    @Test
    void badUsageIsExitTwoAndChangesNothing() {
        seed();
        CliChild cli = new CliChild(dir);
        for (String[] args : new String[][] {
                {"erase", "--db", db(), "--tenant", "acme"},
                {"erase", "--db", db(), "--tenant", "acme", "--user", "ada", "--session", "bob-1"},
                {"erase", "--db", db(), "--user", "ada"},
                {"erase", "--db", db(), "--tenant", "acme corp", "--all"},
                {"erase", "--db", db(), "--tenant", "acme", "--user", "ada", "--by", " "},
                {"holds", "place", "--db", db(), "--tenant", "acme", "--user", "ada"},
                {"keys", "create", "--db", db(), "--tenant", "acme", "--admin"},
                {"erase", "--db", db(), "--tenant", "acme", "--user", "ada", "--text", "x"},
                {"erase", "--db", db(), "--tenant", "acme", "--replay", "r.jsonl"}}) {
            CliTest.Run r = cli.run(args);
            assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(2);
            assertThat(r.out()).isBlank();
        }
        CliTest.Run admin = cli.run("keys", "create", "--db", db(), "--admin");
        assertThat(admin.code()).as(admin.err()).isZero();
        assertThat(admin.out().strip()).startsWith("tl_");
        assertThat(admin.err()).contains("(an admin key)");
        assertThat(cli.run("keys", "list", "--db", db()).out()).contains("threadline.admin");
        CliTest.Run missing = cli.run("erase", "--db", dir.resolve("none.db").toString(), "--tenant", "acme", "--all");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("no store at");
        assertThat(Files.exists(dir.resolve("none.db"))).isFalse();
        assertThat(cli.run("sessions", "list", "--db", db(), "--tenant", "acme").out()).contains("ada-1-fork").contains("bob-1");
    }
}
