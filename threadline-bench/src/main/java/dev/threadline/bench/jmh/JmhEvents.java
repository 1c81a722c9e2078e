package dev.threadline.bench.jmh;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Journal entries for the microbenchmarks: the whole-run benchmark's conversation, numbered from seq 2. */
final class JmhEvents {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private JmhEvents() {}

    static SessionInfo info(String id) {
        return SessionInfo.create(id, SessionConfig.DEFAULT, T0);
    }

    static StoredEvent created(String id) {
        return new StoredEvent(id, 1, 1, T0, "create", CheckpointSource.INPUT, new Event.SessionCreated(info(id)));
    }

    /** The events of the first {@code messages} messages, as stored entries after seq 1. */
    static List<StoredEvent> journal(String id, int messages) {
        List<StoredEvent> out = new ArrayList<>();
        long seq = 1;
        for (int m = 0; m < messages; m++) {
            for (Event e : BenchMessage.at(m).toEvents()) {
                seq++;
                out.add(new StoredEvent(id, seq, m + 2, T0.plusMillis(seq), "cmd-" + m, CheckpointSource.LOOP, e));
            }
        }
        return out;
    }

    /** One more user message at {@code seq}. */
    static StoredEvent userMessage(String id, long seq) {
        return new StoredEvent(id, seq, seq, T0.plusMillis(seq), "cmd", CheckpointSource.INPUT, BenchMessage.at(0).toEvents().get(0));
    }
}
