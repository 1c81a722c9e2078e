package dev.threadline.core.store;

import dev.threadline.core.store.memory.InMemoryStateStore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-memory store's interrupt requests: seen once, by the holder of the epoch they were made for. */
class InterruptRequestsTest {

    @Test
    void aRequestIsTakenOnceByTheLeaseOfItsEpochAndNeverByALaterOne() {
        InMemoryStateStore store = new InMemoryStateStore();
        SessionInfo info = new SessionInfo("s1", SessionInfo.DEFAULT_TENANT, "u", SessionConfig.DEFAULT, Map.of(),
                Instant.parse("2026-12-01T00:00:00Z"), null, null, 0);
        store.create(info, List.of(new StoredEvent("s1", 1, 1, info.createdAt(), "c", CheckpointSource.SYSTEM,
                new Event.SessionCreated(info))));
        SessionKey key = SessionKey.of(info);
        Lease a = ((LeaseResult.Acquired) store.acquire(key, "a", Duration.ofMinutes(1), null)).lease();

        assertThat(store.takeInterruptRequest(a)).isEmpty();
        assertThat(store.requestInterrupt(key, a.epoch(), "stop")).isTrue();
        assertThat(store.takeInterruptRequest(a)).contains("stop");
        assertThat(store.takeInterruptRequest(a)).as("taken once").isEmpty();

        store.requestInterrupt(key, a.epoch(), "stop again");
        store.release(a);
        Lease b = ((LeaseResult.Acquired) store.acquire(key, "b", Duration.ofMinutes(1), null)).lease();
        assertThat(store.takeInterruptRequest(b)).as("made for the old epoch").isEmpty();
    }
}
