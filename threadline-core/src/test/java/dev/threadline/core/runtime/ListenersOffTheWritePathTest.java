package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, step 4: listeners are called off the write path. One listener blocks (for as long as the test
 * holds it) and one throws, while two sessions keep writing: every write returns while the blocking
 * listener still holds its call, the other session's steps reach a third listener meanwhile, and once
 * released every listener has heard every step of both sessions, in commit order, nothing lost.
 */
class ListenersOffTheWritePathTest {
    private static final int WRITES = 20;

    /** What the recording listener heard, per session, in the order heard; waits on its own monitor. */
    private static final class Heard {
        private final Map<String, List<Long>> seqs = new HashMap<>();

        synchronized void add(String session, List<StoredEvent> events) {
            List<Long> list = seqs.computeIfAbsent(session, k -> new ArrayList<>());
            events.forEach(e -> list.add(e.seq()));
            notifyAll();
        }

        synchronized List<Long> of(String session) {
            return List.copyOf(seqs.getOrDefault(session, List.of()));
        }

        /** Waits until {@code session}'s last heard seq is {@code head}, at most 30 s (then returns what it has). */
        synchronized List<Long> awaitHead(String session, long head) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                List<Long> list = seqs.getOrDefault(session, List.of());
                long left = deadline - System.nanoTime();
                if ((!list.isEmpty() && list.getLast() == head) || left <= 0) {
                    return List.copyOf(list);
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    @Test
    void aBlockingAndAThrowingListenerSlowOrBreakNoWrite() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean blockedOnce = new AtomicBoolean();
        AtomicBoolean thrownOnce = new AtomicBoolean();
        Heard heard = new Heard();

        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(ScriptedModel.demo()).build()) {
            Tenant t = tl.defaultTenant();
            t.addListener((id, events, state) -> {             // blocks on s1's first step until released
                if (id.equals("s1") && blockedOnce.compareAndSet(false, true)) {
                    blocked.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            t.addListener((id, events, state) -> {             // fails once, on the first step it hears
                if (thrownOnce.compareAndSet(false, true)) {
                    throw new IllegalStateException("a listener that fails (expected in this test)");
                }
            });
            t.addListener((id, events, state) -> heard.add(id, events));

            Session s1 = t.create("s1", SessionConfig.DEFAULT);
            assertThat(blocked.await(30, TimeUnit.SECONDS)).as("the blocking listener heard s1's creation").isTrue();
            Session s2 = t.create("s2", SessionConfig.DEFAULT);

            // every write returns while the first listener still holds its call
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < WRITES; i++) {
                    Session s = i % 2 == 0 ? s1 : s2;
                    s.edit("test", "write " + i, List.of(Edit.set("k", IntNode.valueOf(i))));
                }
                s1.submit("what is 2+3");
                s2.submit("what is 4*5");
            });
            writes.get(60, TimeUnit.SECONDS);
            assertThat(release.getCount()).as("the blocking listener is still held").isEqualTo(1);

            long head1 = s1.history().journal().getLast().seq();
            long head2 = s2.history().journal().getLast().seq();
            // the other session's steps reach the recording listener meanwhile; s1's wait behind the held call
            assertThat(heard.awaitHead("s2", head2)).containsExactlyElementsOf(LongStream.rangeClosed(1, head2).boxed().toList());
            assertThat(heard.of("s1")).isEmpty();

            release.countDown();
            assertThat(heard.awaitHead("s1", head1)).containsExactlyElementsOf(LongStream.rangeClosed(1, head1).boxed().toList());
            assertThat(heard.of("s2")).containsExactlyElementsOf(LongStream.rangeClosed(1, head2).boxed().toList());
            assertThat(thrownOnce).isTrue();
            assertThat(s1.state().variable("k")).isEqualTo(IntNode.valueOf(WRITES - 2));
            assertThat(s2.state().variable("k")).isEqualTo(IntNode.valueOf(WRITES - 1));
        }
    }
}
