package dev.threadline.core.runtime;

import dev.threadline.core.internal.engine.state.StateManager;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.internal.store.CanonicalUuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The ids the runtime gives commands without a caller's id: version 7 UUIDs (Unix milliseconds, then
 * random bits) in the canonical text the SQL stores keep as 16 bytes, distinct across threads.
 */
class CommandIdsTest {
    @Test
    void anIdIsACanonicalVersion7UuidOfTheTimeItWasMade() {
        long before = System.currentTimeMillis();
        String id = StateManager.newCommandId();
        long after = System.currentTimeMillis();
        UUID u = UUID.fromString(id);
        assertThat(u.version()).isEqualTo(7);
        assertThat(u.variant()).as("the IETF variant").isEqualTo(2);
        assertThat(CanonicalUuid.of(id)).as("stored as a uuid, not as text").isEqualTo(u);
        assertThat(u.getMostSignificantBits() >>> 16).as("its milliseconds").isBetween(before, after);
    }

    @Test
    void idsMadeOnManyThreadsAtOnceAreDistinct() throws Exception {
        Set<String> all = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        int perThread = 20_000;
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                Set<String> mine = new HashSet<>();
                for (int i = 0; i < perThread; i++) {
                    mine.add(StateManager.newCommandId());
                }
                all.addAll(mine);
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(all).hasSize(8 * perThread);
    }
}
