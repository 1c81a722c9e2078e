package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.StateStores;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline keys rotate-data} and {@code keys rewrap} on a SQLite file (ADR 0049): a plain store's rows sealed
 * after the fact (the canary gone from the file, the conversation still read), a second rotation, the old
 * key-encryption key retired after a rewrap, and the refusals: no keys in the URL, a bad batch, a tenant without a key.
 */
class KeysRotateDataFromTheCliTest {
    private static final String CANARY = "rotatecanary-51e0";

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private Path db() {
        return dir.resolve("k.db");
    }

    private String keyring(String name, String active, String... ids) throws IOException {
        StringBuilder keys = new StringBuilder();
        for (String id : ids) {
            keys.append(keys.isEmpty() ? "" : ", ").append('"').append(id).append("\": \"").append(Base64.getEncoder()
                    .encodeToString(id.substring(id.length() - 1).repeat(32).getBytes(StandardCharsets.US_ASCII))).append('"');
        }
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"tenants\": {\"*\": {\"active\": \"" + active + "\", \"keys\": {" + keys + "}}}}");
        return "sqlite:" + db() + "?keys=keyring:" + f;
    }

    private String transcript(String url) {
        try (Threadline tl = Threadline.builder().store(StateStores.open(url)).model(ScriptedModel.demo()).build()) {
            return tl.defaultTenant().open("a").state().messages().toString();
        }
    }

    private boolean fileHolds(String text) throws IOException {
        return new String(Files.readAllBytes(db()), StandardCharsets.ISO_8859_1).contains(text);
    }

    @Test
    void aPlainStoreIsSealedAfterTheFactThenRotatedAndItsOldKekRetired() throws IOException {
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db())).model(ScriptedModel.demo()).build()) {
            Session s = tl.defaultTenant().create("a", SessionConfig.DEFAULT);
            for (int i = 0; i < 6; i++) {
                s.submit("turn " + i + " " + CANARY);
            }
        }
        String before = transcript("sqlite:" + db());
        assertThat(before).contains(CANARY);
        assertThat(fileHolds(CANARY)).isTrue();

        String one = keyring("one.json", "kek-1", "kek-1");
        Run sealed = run("keys", "rotate-data", "--store", one, "--batch", "7");
        assertThat(sealed.code()).as(sealed.err()).isZero();
        assertThat(sealed.out()).contains("Data key 1 is now the newest").containsPattern("Sealed [1-9][0-9]* payloads again under data key 1\\.")
                .contains("write-ahead log checkpointed and truncated");
        assertThat(fileHolds(CANARY)).as("no plaintext left in the file").isFalse();
        assertThat(transcript(one)).isEqualTo(before);

        Run rotated = run("keys", "rotate-data", "--store", one);
        assertThat(rotated.code()).as(rotated.err()).isZero();
        assertThat(rotated.out()).contains("Data key 2 is now the newest").contains("again under data key 2.");
        Run again = run("keys", "rotate-data", "--store", one, "--reseal-only");
        assertThat(again.out()).doesNotContain("is now the newest").contains("Sealed 0 payloads again under data key 2.");

        Run rewrap = run("keys", "rewrap", "--store", keyring("both.json", "kek-2", "kek-1", "kek-2"));
        assertThat(rewrap.code()).as(rewrap.err()).isZero();
        assertThat(rewrap.out()).contains("Wrapped 2 data keys again under the active key-encryption key; 2 in all.");
        assertThat(transcript(keyring("two.json", "kek-2", "kek-2"))).isEqualTo(before);
    }

    @Test
    void withoutKeysABadBatchOrATenantWithoutAKeyItIsOneLineAndNothingChanges() throws IOException {
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db())).model(ScriptedModel.demo()).build()) {
            tl.defaultTenant().create("a", SessionConfig.DEFAULT).submit("hello " + CANARY);
        }
        Run plain = run("keys", "rotate-data", "--db", db().toString());
        assertThat(plain.code()).isEqualTo(2);
        assertThat(plain.err()).contains("is not opened with keys").contains("?keys=keyring:FILE");
        Run rewrap = run("keys", "rewrap", "--db", db().toString());
        assertThat(rewrap.code()).isEqualTo(2);

        String one = keyring("one.json", "kek-1", "kek-1");
        Run batch = run("keys", "rotate-data", "--store", one, "--batch", "0");
        assertThat(batch.code()).isEqualTo(2);
        assertThat(batch.err()).contains("--batch must be 1 or more");

        Path onlyAcme = dir.resolve("acme.json");
        Files.writeString(onlyAcme, "{\"tenants\": {\"acme\": {\"active\": \"k\", \"keys\": {\"k\": \""
                + Base64.getEncoder().encodeToString("k".repeat(32).getBytes(StandardCharsets.US_ASCII)) + "\"}}}}");
        Run missing = run("keys", "rotate-data", "--store", "sqlite:" + db() + "?keys=keyring:" + onlyAcme);
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().strip()).startsWith("threadline:").contains("default").doesNotContain("\n").doesNotContain("Exception");
        assertThat(fileHolds(CANARY)).as("nothing was sealed").isTrue();
    }
}
