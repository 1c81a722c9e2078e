package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** Issue 24's pruning acceptance on the in-memory store, measured in the session's own rows (it keeps no bytes). */
class InMemoryPruningAcceptanceTest {
    @Test
    void aPrunedSessionResumesForksKeepWorkingAndAPrunedCheckpointIsOneClearError() {
        InMemoryStateStore store = new InMemoryStateStore();
        SessionKey key = new SessionKey("default", "long");
        PruningAcceptance.Report r = PruningAcceptance.run(store, Clock.systemUTC(), 2_000, 100,
                () -> store.readOwn(key, 1, store.head(key)).size());
        System.out.println("memory: " + r);
        assertThat(r.bytesAfter()).isEqualTo(r.events() - r.prunedThrough());
    }
}
