package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.RandomJournal;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Checkpoints by page: the pages cover exactly the checkpoint list, and a page never reads the whole journal. */
class CheckpointPagingTest {

    @Provide
    Arbitrary<List<Integer>> choices() {
        return Arbitraries.integers().between(0, 999).list().ofMinSize(1).ofMaxSize(120);
    }

    @Property(tries = 100)
    void forwardAndBackwardPagesCoverEveryCheckpointOnceInOrder(@ForAll("choices") List<Integer> choices,
                                                                @ForAll @IntRange(min = 1, max = 9) int limit) {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
            for (List<Event> step : RandomJournal.steps(choices)) {
                Engines.update(tl, "s", CheckpointSource.LOOP, st -> step);
            }
            List<Checkpoint> all = s.history().checkpoints();

            List<Checkpoint> forward = new ArrayList<>();
            Page<Checkpoint> page = s.history().checkpoints(PageRequest.after(0, limit));
            while (true) {
                assertThat(page.items().size()).isLessThanOrEqualTo(limit);
                forward.addAll(page.items());
                if (!page.hasNext()) {
                    break;
                }
                page = s.history().checkpoints(PageRequest.after(Long.parseLong(page.nextCursor()), limit));
            }
            List<Checkpoint> backward = new ArrayList<>();
            page = s.history().checkpoints(PageRequest.before(Long.MAX_VALUE, limit));
            while (true) {
                backward.addAll(0, page.items());
                if (!page.hasNext()) {
                    break;
                }
                page = s.history().checkpoints(PageRequest.before(Long.parseLong(page.nextCursor()), limit));
            }
            assertThat(forward).isEqualTo(all);
            assertThat(backward).isEqualTo(all);
        }
    }

    @Test
    void oneTimelinePageOfALongSessionReadsOnlyEventsNearIt() {
        AtomicLong read = new AtomicLong();
        InMemoryStateStore inner = new InMemoryStateStore();
        CountingStore store = new CountingStore(inner, read);
        try (Threadline tl = Threadline.builder().store(store).snapshotEvery(1000).build()) {
            Session s = tl.defaultTenant().create("long", SessionConfig.DEFAULT);
            for (int i = 0; i < 2_000; i++) {
                Engines.update(tl, "long", CheckpointSource.LOOP, st -> List.of(Engines.user("u"),
                        new Event.AssistantMessageReceived(dev.threadline.core.model.Message.assistantText("a")),
                        new Event.TurnCompleted("end_turn")));
            }
            long head = inner.head(new SessionKey("default", "long"));
            assertThat(head).isEqualTo(6_001);
            read.set(0);
            Page<Checkpoint> newest = s.history().checkpoints(PageRequest.before(Long.MAX_VALUE, 10));
            long forNewest = read.get();
            read.set(0);
            Page<Checkpoint> middle = s.history().checkpoints(PageRequest.after(3_001, 10));
            long forMiddle = read.get();

            assertThat(newest.items()).hasSize(10).last().satisfies(c -> assertThat(c.seq()).isEqualTo(head));
            assertThat(middle.items()).hasSize(10).first().satisfies(c -> assertThat(c.seq()).isEqualTo(3_004));
            assertThat(forNewest).as("events read for the newest page").isLessThan(200);
            assertThat(forMiddle).as("events read for a middle page").isLessThan(200);
        }
    }

    /** A store that counts the events its journal reads return. */
    static final class CountingStore extends ForwardingStore {
        private final AtomicLong read;

        CountingStore(InMemoryStateStore inner, AtomicLong read) {
            super(inner);
            this.read = read;
        }

        @Override
        public List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq) {
            List<StoredEvent> out = super.readOwn(key, fromSeq, toSeq);
            read.addAndGet(out.size());
            return out;
        }
    }
}
