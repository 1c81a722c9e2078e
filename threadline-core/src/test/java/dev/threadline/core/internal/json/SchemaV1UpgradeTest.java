package dev.threadline.core.internal.json;

import dev.threadline.core.json.Json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.model.Usage;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Records written by schema version 1 (fixtures in src/test/resources/fixtures/v1) read in version 2. */
class SchemaV1UpgradeTest {

    private static String fixture(String name) throws IOException {
        try (InputStream in = SchemaV1UpgradeTest.class.getResourceAsStream("/fixtures/v1/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<StoredEvent> journal() throws IOException {
        return fixture("session-export.jsonl").lines().map(l -> RecordCodec.importLine(Json.parse(l, "line"))).toList();
    }

    @Test
    void aVersion1JournalReadsWithItsPolicyAsAnObjectAndTheNewLimitsAtTheirDefaults() throws IOException {
        List<StoredEvent> events = journal();
        SessionConfig config = ((Event.SessionCreated) events.get(0).event()).session().config();
        assertThat(config.contextPolicy()).isEqualTo(ContextPolicy.full());
        assertThat(config.maxOutputTokens()).isEqualTo(SessionConfig.DEFAULT_MAX_OUTPUT_TOKENS);
        assertThat(config.turnTokenBudget()).isZero();
        assertThat(config.systemPrompt()).isEqualTo("You are terse.");
        assertThat(events.get(9).event()).isEqualTo(new Event.ContextCompacted("The user asked for (2+3)*4, which is 20.", 4));

        State s = Reducer.fold(events);
        assertThat(s.messages()).hasSize(5);
        assertThat(s.usage()).isEqualTo(Usage.of(260, 20));
        assertThat(s.contextStart()).isEqualTo(5);
    }

    @Test
    void reExportingWritesTheCurrentVersionAndReadsBackEqual() throws IOException {
        for (StoredEvent e : journal()) {
            JsonNode line = RecordCodec.exportLine(e);
            assertThat(line.get("v").asInt()).isEqualTo(RecordCodec.VERSION);
            assertThat(RecordCodec.importLine(Json.parse(line.toString(), "line"))).isEqualTo(e);
        }
        JsonNode created = RecordCodec.exportLine(journal().get(0));
        assertThat(created.at("/event/session/config/contextPolicy").toString()).isEqualTo("{\"type\":\"full\"}");
        assertThat(created.at("/event/session/config/maxOutputTokens").asInt()).isEqualTo(4096);
    }

    @Test
    void aVersion1SessionRowIsUpgradedByItsShape() throws IOException {
        SessionInfo info = RecordCodec.decodeSession("old", fixture("session-row.json"));
        assertThat(info.config()).isEqualTo(new SessionConfig("claude-test", "", List.of("calculate"), "full", 7, 1234));
        assertThat(info.config().contextPolicy()).isEqualTo(ContextPolicy.full());
        assertThat(RecordCodec.decodeSession("old", RecordCodec.encodeSession(info))).isEqualTo(info);
    }

    @Test
    void version2ConfigsRoundTripEveryPolicy() {
        for (ContextPolicy p : List.of(ContextPolicy.full(), ContextPolicy.window(40, 8_000), ContextPolicy.autoCompact(),
                new ContextPolicy.AutoCompact(0.75, 0.2))) {
            SessionConfig c = SessionConfig.DEFAULT.withContextPolicy(p).withMaxOutputTokens(1000).withTurnTokenBudget(50_000);
            SessionInfo info = SessionInfo.create("s", c, java.time.Instant.parse("2026-01-01T00:00:00Z"));
            assertThat(RecordCodec.decodeSession("s", RecordCodec.encodeSession(info))).isEqualTo(info);
            Event back = RecordCodec.decodeEvent("s", 1, RecordCodec.VERSION, RecordCodec.encodeEvent(new Event.SessionCreated(info)));
            assertThat(back).isEqualTo(new Event.SessionCreated(info));
        }
        assertThat(Json.write(ContextPolicy.window(40, 0))).isEqualTo("{\"type\":\"window\",\"maxMessages\":40,\"maxTokens\":0}");
        assertThat(Json.write(ContextPolicy.autoCompact())).isEqualTo("{\"type\":\"auto-compact\",\"threshold\":0.9,\"keepRecent\":0.25}");
        Event compacted = new Event.ContextCompacted("s", 3, Usage.of(100, 20));
        assertThat(RecordCodec.decodeEvent("s", 1, 2, RecordCodec.encodeEvent(compacted))).isEqualTo(compacted);
    }

    @Test
    void aVersion1ConfigNamingAnUnknownPolicyIsACorruptRowNamingTheSessionAndSeq() {
        String payload = "{\"type\":\"SessionCreated\",\"session\":{\"id\":\"x\",\"config\":{\"model\":\"m\",\"contextPolicy\":\"lru\","
                + "\"maxIterations\":3,\"toolTimeoutMillis\":10},\"createdAt\":\"2026-01-01T00:00:00Z\",\"parentSeq\":0}}";
        assertThatThrownBy(() -> RecordCodec.decodeEvent("x", 1, 1, payload)).isInstanceOf(StorageException.class)
                .hasMessageContaining("session 'x' seq 1").hasMessageContaining("'lru' names no policy");
    }

    @Test
    void aRecordFromANewerVersionIsRefused() {
        assertThatThrownBy(() -> RecordCodec.decodeEvent("x", 1, RecordCodec.VERSION + 1, "{\"type\":\"Cleared\"}"))
                .isInstanceOf(StorageException.class).hasMessageContaining("newer Threadline");
    }
}
