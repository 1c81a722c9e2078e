package dev.threadline.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stored form of record version 3 (ADR 0025): smaller than the wire JSON, and reads version 2 rows as they are. */
class StoredFormTest {
    private static final Event ANSWER = new Event.AssistantMessageReceived(Message.assistant(
            List.of(ContentBlock.text("twelve percent")), StopReason.END_TURN, Usage.of(900, 100)));

    @Test
    void zeroTokenCountsAreLeftOutAndReadBackAsZero() {
        String stored = RecordCodec.encodeEvent(ANSWER);
        assertThat(stored).contains("\"inputTokens\":900").doesNotContain("cacheReadTokens").doesNotContain("cacheWriteTokens");
        assertThat(stored.length()).isEqualTo(Json.write(ANSWER).length() - ",\"cacheReadTokens\":0,\"cacheWriteTokens\":0".length());
        assertThat(RecordCodec.decodeEvent("s", 1, RecordCodec.VERSION, stored)).isEqualTo(ANSWER);
        assertThat(RecordCodec.decodeEvent("s", 1, RecordCodec.VERSION, stored.getBytes(StandardCharsets.UTF_8))).isEqualTo(ANSWER);
    }

    @Test
    void nonZeroCountsAreKeptAndTheWireFormIsUnchanged() {
        Event cached = new Event.AssistantMessageReceived(Message.assistant(
                List.of(ContentBlock.text("x")), StopReason.END_TURN, new Usage(1, 2, 3, 0)));
        assertThat(RecordCodec.encodeEvent(cached)).contains("\"cacheReadTokens\":3").doesNotContain("cacheWriteTokens");
        assertThat(RecordCodec.decodeEvent("s", 1, RecordCodec.VERSION, RecordCodec.encodeEvent(cached))).isEqualTo(cached);
        assertThat(Json.write(ANSWER)).contains("\"cacheReadTokens\":0"); // the API's JSON keeps every field
    }

    /** Regression: the stored form's usage reader refused {@code costMicros}, so a priced reply made its session unreadable. */
    @Test
    void aPricedReplysCostIsStoredAndReadBack() {
        Event priced = new Event.AssistantMessageReceived(Message.assistant(
                List.of(ContentBlock.text("x")), StopReason.END_TURN, new Usage(10, 5, 0, 0, 105)));
        assertThat(RecordCodec.encodeEvent(priced)).contains("\"costMicros\":105");
        assertThat(RecordCodec.decodeEvent("s", 1, RecordCodec.VERSION, RecordCodec.encodeEvent(priced))).isEqualTo(priced);
        assertThat(RecordCodec.encodeEvent(ANSWER)).doesNotContain("cost");
        dev.threadline.core.state.StateSnapshot snap = new dev.threadline.core.state.StateSnapshot(3, 1,
                dev.threadline.core.state.SessionStatus.BUDGET_EXCEEDED, 2, java.util.Map.of(), List.of(), new Usage(10, 5, 0, 0, 105), 0,
                null, 0, null, List.of(), dev.threadline.core.state.Budget.ofTokens(15));
        assertThat(RecordCodec.decodeSnapshot("s", RecordCodec.VERSION, RecordCodec.encodeSnapshot(snap))).isEqualTo(snap);
    }

    @Test
    void aVersion2RowWithEveryCountReadsAsItIs() {
        String v2 = Json.write(ANSWER);
        assertThat(RecordCodec.decodeEvent("s", 1, 2, v2)).isEqualTo(ANSWER);
        assertThat(RecordCodec.decodeEvent("s", 1, 2, v2.getBytes(StandardCharsets.UTF_8))).isEqualTo(ANSWER);
    }

    @Test
    void aDamagedUsageIsACorruptRowNamingTheSeq() {
        String unknown = RecordCodec.encodeEvent(ANSWER).replace("\"inputTokens\"", "\"inputTokenz\"");
        String text = RecordCodec.encodeEvent(ANSWER).replace("900", "\"900\"");
        String negative = RecordCodec.encodeEvent(ANSWER).replace("900", "-900");
        for (String bad : List.of(unknown, text, negative)) {
            assertThatThrownBy(() -> RecordCodec.decodeEvent("s", 7, RecordCodec.VERSION, bad))
                    .isInstanceOf(StorageException.class).hasMessageContaining("seq 7");
        }
    }

    @Test
    void payloadsJoinedIntoOneArrayDecodeAsTheyDoOneByOneAndACorruptOneIsAnErrorNamingTheSeqs() {
        Event question = new Event.UserMessageReceived(Message.user("what grew?"));
        List<byte[]> payloads = List.of(RecordCodec.encodeEvent(question).getBytes(StandardCharsets.UTF_8),
                RecordCodec.encodeEvent(ANSWER).getBytes(StandardCharsets.UTF_8));
        assertThat(RecordCodec.decodeJoined("s", 3, 4, payloads)).containsExactly(question, ANSWER);
        assertThat(RecordCodec.decodeJoined("s", 3, 2, List.of())).isEmpty();
        assertThatThrownBy(() -> RecordCodec.decodeJoined("s", 3, 4, List.of(payloads.get(0), "{\"type\":".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(StorageException.class).hasMessageContaining("session 's'").hasMessageContaining("3..4");
        assertThat(RecordCodec.readsAsIs(RecordCodec.VERSION)).isTrue();
        assertThat(RecordCodec.readsAsIs(1)).as("version 1 needs its upgrade step").isFalse();
        assertThat(RecordCodec.readsAsIs(RecordCodec.VERSION + 1)).as("a newer version").isFalse();
    }
}
