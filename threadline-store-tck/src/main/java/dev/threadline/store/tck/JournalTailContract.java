package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.store.JournalTail;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@link JournalTail}, following a journal: {@code awaitHead} returns as soon as the head is past
 * the given seq, wakes for a write made by another thread, and gives up after its timeout with the head
 * unchanged. No test sleeps; the bounds below only catch a waiter that never returns. JUnit makes an
 * instance per test; the waiting thread is the test's own.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class JournalTailContract<S extends SessionIndex & JournalTail & Leases>
        extends StoreContractSupport<S> {
    private static final Duration LONG = Duration.ofMinutes(2);
    private static final Duration BOUND = Duration.ofSeconds(30);

    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected JournalTailContract() {}

    @Test
    public final void awaitHeadReturnsAtOnceWhenTheHeadIsAlreadyPast() {
        createRoot("s", 3);

        long head = assertTimeoutPreemptively(BOUND, () -> store.awaitHead(key("s"), 2, LONG));
        assertThat(head).isEqualTo(3);
        assertThat(assertTimeoutPreemptively(BOUND, () -> store.awaitHead(key("s"), 0, LONG))).isEqualTo(3);
    }

    @Test
    public final void awaitHeadReturnsOnceAnotherThreadAppends() throws Exception {
        createRoot("s", 1);
        CountDownLatch waiting = new CountDownLatch(1);
        FutureTask<Long> waiter = new FutureTask<>(() -> {
            waiting.countDown();
            return store.awaitHead(key("s"), 1, LONG);
        });
        Thread.ofPlatform().daemon().name("tck-tail-waiter").start(waiter); // its own thread: no shared pool to queue behind
        assertThat(waiting.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(waiter).as("nothing was appended yet").isNotDone();

        appendMessages("s", 2);
        assertThat(waiter.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(3);
    }

    @Test
    public final void awaitHeadTimesOutWithTheUnchangedHead() throws Exception {
        createRoot("s", 2);

        assertThat(store.awaitHead(key("s"), 2, Duration.ofMillis(30))).isEqualTo(2);
        assertThat(store.awaitHead(key("s"), 5, Duration.ZERO)).isEqualTo(2);
        assertThat(store.head(key("s"))).isEqualTo(2);
    }

    @Test
    public final void awaitHeadOfAnUnknownSessionIsRefused() {
        assertThatThrownBy(() -> store.awaitHead(key("nope"), 0, Duration.ofSeconds(1)))
                .isInstanceOf(SessionNotFoundException.class).hasMessageContaining("nope");
    }
}
