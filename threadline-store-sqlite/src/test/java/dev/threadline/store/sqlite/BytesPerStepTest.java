package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance: the bytes written per step at history length 2,000 are within 1.5x of those at
 * length 10, measured from the database, not from a counter in our code. Two measures: the growth
 * of the write-ahead log (every byte SQLite writes for a commit, with automatic checkpoints off so
 * the main file is untouched) and the size of the payload rows those steps added, summed by SQL.
 */
class BytesPerStepTest {
    private static final int STEPS = 50;
    private static final Instant T0 = Instant.parse("2025-03-01T09:00:00Z");

    @TempDir
    Path dir;

    record Measure(int historyLength, double walBytesPerStep, double payloadBytesPerStep) {}

    @Test
    void bytesWrittenPerStepDoNotGrowWithHistoryLength() throws Exception {
        Measure shortHistory = measure(10);
        Measure longHistory = measure(2_000);
        System.out.printf("bytes per step: %s%n               %s%n", shortHistory, longHistory);

        assertThat(shortHistory.walBytesPerStep()).isPositive();
        assertThat(shortHistory.payloadBytesPerStep()).isPositive();
        assertThat(longHistory.walBytesPerStep() / shortHistory.walBytesPerStep()).isLessThanOrEqualTo(1.5);
        assertThat(longHistory.payloadBytesPerStep() / shortHistory.payloadBytesPerStep()).isLessThanOrEqualTo(1.5);
    }

    /** Builds a session of {@code length} events, then measures the next {@link #STEPS} single-message appends. */
    private Measure measure(int length) throws Exception {
        Path file = dir.resolve("history-" + length + ".db");
        Path wal = dir.resolve(file.getFileName() + "-wal");
        SessionInfo info = SessionInfo.create("s", SessionConfig.DEFAULT, T0);
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            store.create(info, List.of(new StoredEvent("s", 1, 1, T0, "create", CheckpointSource.INPUT,
                    new Event.SessionCreated(info))));
            SessionKey key = SessionKey.of(info);
            long epoch = ((LeaseResult.Acquired) store.acquire(key, "w", Duration.ofHours(1), null)).lease().epoch();
            long head = 1;
            while (head < length) {       // history built in batches: the rows are the same as one step at a time
                List<StoredEvent> batch = new ArrayList<>();
                for (long seq = head + 1; seq <= Math.min(length, head + 100); seq++) {
                    batch.add(message(seq));
                }
                head = store.append(AppendRequest.of(key, head, epoch, batch));
            }

            assertThat(store.pragma("PRAGMA wal_checkpoint(TRUNCATE)")).as("checkpoint busy").isEqualTo("0");
            store.pragma("PRAGMA wal_autocheckpoint = 0");
            long walBefore = Files.size(wal);
            long mainBefore = Files.size(file);
            assertThat(walBefore).as("WAL after truncation").isZero();

            for (int i = 0; i < STEPS; i++) {
                head = store.append(AppendRequest.of(key, head, epoch, List.of(message(head + 1))));
            }

            long walGrowth = Files.size(wal) - walBefore;
            assertThat(Files.size(file)).as("main file untouched: every write is in the WAL").isEqualTo(mainBefore);
            long payload;
            try (RawDb raw = new RawDb(file)) {
                payload = raw.queryLong("SELECT sum(length(CAST(payload AS BLOB))) FROM events"
                        + " WHERE sid = (SELECT sid FROM sessions WHERE id = 's') AND seq > ?", length);
            }
            return new Measure(length, (double) walGrowth / STEPS, (double) payload / STEPS);
        }
    }

    /** A turn is a user message then the assistant's reply, each about 200 bytes of text. */
    private static StoredEvent message(long seq) {
        String text = text(seq);
        Event event = seq % 2 == 0
                ? new Event.UserMessageReceived(Message.user(text))
                : new Event.AssistantMessageReceived(Message.assistant(List.of(ContentBlock.text(text)),
                        StopReason.END_TURN, Usage.of(1_000 + seq * 120, 60)));
        return new StoredEvent("s", seq, seq, T0.plusSeconds(seq), "cmd-" + seq,
                seq % 2 == 0 ? CheckpointSource.INPUT : CheckpointSource.LOOP, event);
    }

    private static String text(long seq) {
        String base = "Turn " + seq + ": could you look at the quarterly numbers again and tell me whether the"
                + " growth in the north region is explained by the new pricing, or by the two large accounts"
                + " that renewed early? Keep it short. ";
        return base.substring(0, Math.min(base.length(), 200));
    }
}
