package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Resealing.Resealed;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.WrappedDataKey;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turning keys over on SQLite (ADR 0049, {@code threadline keys rotate-data}): a plain store's rows sealed after the
 * fact, with no canary left in its files and every read the same; a rotation followed by a re-seal moving every payload
 * to the new data key; data keys wrapped again so that the old key-encryption key can go; refusals without keys.
 */
class SqliteResealTest {
    private static final String OTHER = "globexplaincanary42";
    private static final List<String> SESSIONS = List.of("ada-0", "ada-1", "ada-2", "cmd");
    private static final String[][] COLUMNS = {{"events", "payload"}, {"segments", "payloads"}, {"snapshots", "payload"},
        {"variables", "value"}, {"commands", "result"}, {"history_bases", "payload"}, {"interrupts", "reason"}};

    @TempDir
    Path dir;

    private static String key(char c) {
        return Base64.getEncoder().encodeToString(String.valueOf(c).repeat(32).getBytes(StandardCharsets.US_ASCII));
    }

    private Path keyring(String name, String active, String... ids) throws IOException {
        List<String> keys = new ArrayList<>();
        for (String id : ids) {
            keys.add("\"" + id + "\": \"" + key(id.charAt(id.length() - 1)) + "\"");
        }
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"tenants\": {\"*\": {\"active\": \"" + active + "\", \"keys\": {" + String.join(", ", keys) + "}}}}");
        return f;
    }

    private static SqliteStateStore open(Path db, Path keyring) {
        return SqliteStateStore.open(db, SqliteStateStore.Options.defaults().withKeys(KeyProviders.keyring(keyring)));
    }

    /** Everything acme's sessions read as, through the store: journals, snapshots, bases, command, variables. */
    private static String reads(StateStore store) {
        StringBuilder out = new StringBuilder();
        for (String id : SESSIONS) {
            SessionKey k = new SessionKey("acme", id);
            out.append(store.readOwn(k, 0, Long.MAX_VALUE)).append(store.latestSnapshot(k, Long.MAX_VALUE))
                    .append(store.historyBase(k)).append(store.command(k, "c-1"));
        }
        out.append(store.variables(VariableScope.USER, ScopedWrite.userKey("acme", "ada")))
                .append(store.variables(VariableScope.APP, ScopedWrite.appKey("acme")));
        return out.toString();
    }

    @Test
    void aPlainStoresRowsSealedAfterTheFactLeaveNoCanaryInItsFilesAndReadTheSame() throws Exception {
        Path where = dir.resolve("store");
        Path db = where.resolve("store.db");
        SqliteEncryptionTest.fillEverything(where, null);
        try (SqliteStateStore store = SqliteStateStore.open(db)) {
            SessionInfo info = StoreFixtures.root("g", "globex", "u");
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("g", 2, OTHER)));
        }
        String before;
        try (SqliteStateStore store = SqliteStateStore.open(db)) {
            before = reads(store);
        }
        assertThat(CanaryScan.occurrences(where, SqliteEncryptionTest.CANARY)).as("plain before").isPositive();

        Path ring = keyring("ring.json", "kek-1", "kek-1");
        List<Resealed> progress = new ArrayList<>();
        try (SqliteStateStore store = open(db, ring)) {
            Resealed done = store.reseal("acme", 5, progress::add);
            assertThat(done.resealed()).isPositive().isEqualTo(done.examined());
            assertThat(progress).hasSizeGreaterThan(3).last().isEqualTo(done);
            assertThat(reads(store)).isEqualTo(before);
            assertThat(store.reseal("acme", 5, progress::add).examined()).as("nothing left").isZero();
            assertThat(store.scrub()).doesNotContain("NOT");
        }
        byte[] prefix = PayloadSealer.prefix(1);
        for (String[] col : COLUMNS) {
            assertThat(count(db, "SELECT count(*) FROM " + col[0] + " WHERE " + col[1] + " IS NOT NULL AND NOT (typeof(" + col[1]
                    + ") = 'blob' AND hex(substr(" + col[1] + ", 1, 5)) = '" + HexFormat.of().withUpperCase().formatHex(prefix) + "')"
                    + switch (col[0]) {
                        case "variables" -> " AND (scope_key = 'acme' OR scope_key LIKE 'acme/%')";
                        case "events", "segments", "history_bases" -> " AND sid IN (SELECT sid FROM sessions WHERE tenant = 'acme')";
                        default -> " AND tenant = 'acme'";
                    }))
                    .as("acme's unsealed " + col[0]).isZero();
        }
        assertThat(count(db, "SELECT count(*) FROM events e JOIN sessions s ON s.sid = e.sid WHERE s.tenant = 'globex'"
                + " AND typeof(e.payload) = 'text'")).as("another tenant's rows are left as they were").isEqualTo(2);
        assertThat(count(db, "SELECT count(*) FROM journal_text t JOIN sessions s ON s.sid = t.sid WHERE s.tenant = 'acme'")).isZero();
        assertThat(CanaryScan.occurrences(where, SqliteEncryptionTest.CANARY)).as("no byte of the canary in the files").isZero();
        assertThat(CanaryScan.occurrences(where, OTHER)).as("the plain tenant still is, so the scan can find it").isPositive();
    }

    @Test
    void aRotationThenAResealMovesEveryPayloadToTheNewDataKeyAndTheOldKeyStays() throws Exception {
        Path where = dir.resolve("store");
        Path db = where.resolve("store.db");
        Path ring = keyring("ring.json", "kek-1", "kek-1");
        SqliteEncryptionTest.fillEverything(where, KeyProviders.keyring(ring));
        try (SqliteStateStore store = open(db, ring)) {
            String before = reads(store);
            long underOne = sealedUnder(db, 1);
            assertThat(underOne).isPositive();
            assertThat(store.rotateDataKey("acme")).isEqualTo(2);
            Resealed done = store.reseal("acme", 50, r -> { });
            assertThat(done.dataKey()).isEqualTo(2);
            assertThat(done.resealed()).isEqualTo(underOne);
            assertThat(sealedUnder(db, 1)).isZero();
            assertThat(sealedUnder(db, 2)).isEqualTo(underOne);
            assertThat(reads(store)).isEqualTo(before);
            assertThat(store.dataKeys("acme")).extracting(WrappedDataKey::number).containsExactly(1, 2);
        }
    }

    @Test
    void dataKeysWrappedAgainUnderTheNewKekOpenWithTheOldKekGone() throws Exception {
        Path where = dir.resolve("store");
        Path db = where.resolve("store.db");
        SqliteEncryptionTest.fillEverything(where, KeyProviders.keyring(keyring("one.json", "kek-1", "kek-1")));
        String before;
        try (SqliteStateStore store = open(db, keyring("both.json", "kek-2", "kek-1", "kek-2"))) {
            before = reads(store);
            assertThat(store.rewrapDataKeys("acme")).isEqualTo(1);
            assertThat(store.rewrapDataKeys("acme")).isZero();
            assertThat(store.dataKeys("acme")).extracting(WrappedDataKey::kekId).containsExactly("kek-2");
        }
        try (SqliteStateStore store = open(db, keyring("two.json", "kek-2", "kek-2"))) {
            assertThat(reads(store)).isEqualTo(before);
        }
    }

    @Test
    void withoutKeysTurningKeysOverIsRefusedNamingTheOptionAndNothingChanges() throws Exception {
        Path where = dir.resolve("store");
        Path db = where.resolve("store.db");
        SqliteEncryptionTest.fillEverything(where, null);
        try (SqliteStateStore store = SqliteStateStore.open(db)) {
            String before = reads(store);
            assertThat(store.seals()).isFalse();
            assertThatThrownBy(() -> store.reseal("acme", 10, r -> { })).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("not opened with keys").hasMessageContaining("?keys=");
            assertThatThrownBy(() -> store.rotateDataKey("acme")).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> store.rewrapDataKeys("acme")).isInstanceOf(InvalidInputException.class);
            assertThat(reads(store)).isEqualTo(before);
        }
        try (SqliteStateStore store = open(db, keyring("ring.json", "kek-1", "kek-1"))) {
            assertThatThrownBy(() -> store.reseal("acme", 0, r -> { })).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("batch");
        }
        assertThat(count(db, "SELECT count(*) FROM data_keys")).isZero();
    }

    /** Payload values of every column sealed under data key {@code number}. */
    private static long sealedUnder(Path db, int number) throws Exception {
        String hex = HexFormat.of().withUpperCase().formatHex(PayloadSealer.prefix(number));
        long n = 0;
        for (String[] col : COLUMNS) {
            n += count(db, "SELECT count(*) FROM " + col[0] + " WHERE typeof(" + col[1] + ") = 'blob' AND hex(substr(" + col[1]
                    + ", 1, 5)) = '" + hex + "'");
        }
        return n;
    }

    private static long count(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
