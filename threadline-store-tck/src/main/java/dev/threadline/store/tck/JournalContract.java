package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.assistant;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.setUserVar;
import static dev.threadline.store.tck.StoreFixtures.turnCompleted;
import static dev.threadline.store.tck.StoreFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandLog;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SharedVariables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@link Journal}: appends conditional on the expected seq (of writers racing for one seq exactly
 * one wins) and fenced by the lease epoch (a writer whose lease was taken over, or never taken, is
 * refused; expiry alone fences no one), refused batches that write nothing (no events, no shared
 * variables, no command record: an append writes those too, so this suite reads them), and range reads
 * of a session's own events, every kind of event round-tripping exactly. JUnit makes an instance per
 * test; the racing threads are the test's own.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class JournalContract<S extends SessionIndex & Journal & Leases & SharedVariables & CommandLog>
        extends StoreContractSupport<S> {
    private static final int THREADS = 8;
    private static final int ROUNDS = 25;

    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected JournalContract() {}

    @Test
    public final void appendReturnsTheNewHead() {
        createRoot("s1", 1);

        assertThat(append("s1", 1, messages("s1", 2, 2))).isEqualTo(3);
        assertThat(append("s1", 3, List.of(turnCompleted("s1", 4)))).isEqualTo(4);
        assertThat(store.head(key("s1"))).isEqualTo(4);
        assertThat(seqs(store.readOwn(key("s1"), 1, 4))).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    public final void appendWithWrongExpectedSeqConflictsAndWritesNothing() {
        createRoot("s1", 3);
        List<StoredEvent> before = store.readOwn(key("s1"), 1, 100);

        for (long stale : new long[] {0, 2, 4}) {
            assertThatThrownBy(() -> append("s1", stale, messages("s1", stale + 1, 1)))
                    .isInstanceOfSatisfying(VersionConflictException.class, e -> {
                        assertThat(e.sessionId()).isEqualTo("s1");
                        assertThat(e.expected()).isEqualTo(stale);
                        assertThat(e.actual()).isEqualTo(3);
                    });
        }
        assertThat(store.head(key("s1"))).isEqualTo(3);
        assertThat(store.readOwn(key("s1"), 1, 100)).isEqualTo(before);
    }

    @Test
    public final void appendOfBadBatchIsRefusedAndWritesNothing() {
        createRoot("s1", 3);
        createRoot("s2", 3);
        List<StoredEvent> before = store.readOwn(key("s1"), 1, 100);

        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 4, "a"), assistant("s1", 6, "gap"))))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 4, "a"), assistant("s1", 4, "dup"))))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 5, "skips 4"))))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> append("s1", 3, List.of(user("s1", 4, "a"), user("s2", 5, "foreign"))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("s2");
        assertThatThrownBy(() -> append("s1", 3, List.of()))
                .isInstanceOf(InvalidInputException.class);

        assertThat(store.head(key("s1"))).isEqualTo(3);
        assertThat(store.readOwn(key("s1"), 1, 100)).isEqualTo(before);
        assertThat(store.head(key("s2"))).isEqualTo(3);
    }

    @Test
    public final void concurrentAppendersWithTheSameExpectedSeqHaveExactlyOneWinner() throws Exception {
        createRoot("race", 1);
        Map<Long, List<String>> winners = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CyclicBarrier barrier = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String writer = "w" + t;
                futures.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        long expected = 1 + round;
                        StoredEvent e = new StoredEvent("race", expected + 1, expected + 1, StoreFixtures.T0,
                                writer + "-r" + round, CheckpointSource.INPUT,
                                new Event.UserMessageReceived(Message.user("from " + writer)));
                        barrier.await(60, TimeUnit.SECONDS);
                        try {
                            long head = append("race", expected, List.of(e));
                            if (head != expected + 1) {
                                problems.add(writer + " got head " + head + " for expected " + expected);
                            }
                            winners.computeIfAbsent(expected + 1, k -> new ArrayList<>()).add(writer);
                        } catch (VersionConflictException conflict) {
                            if (conflict.expected() != expected || conflict.actual() != expected + 1) {
                                problems.add(writer + ": " + conflict.getMessage());
                            }
                        } catch (RuntimeException other) {
                            problems.add(writer + " round " + round + ": " + other);
                        }
                        barrier.await(60, TimeUnit.SECONDS);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(problems).isEmpty();
        assertThat(winners).hasSize(ROUNDS);
        assertThat(winners.values()).allSatisfy(w -> assertThat(w).hasSize(1));
        assertThat(store.head(key("race"))).isEqualTo(1 + ROUNDS);
        List<StoredEvent> journal = store.readOwn(key("race"), 1, Long.MAX_VALUE);
        assertThat(seqs(journal)).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, 1 + ROUNDS).boxed().toList());
        for (StoredEvent e : journal.subList(1, journal.size())) {
            assertThat(e.commandId()).startsWith(winners.get(e.seq()).get(0) + "-r");
        }
    }

    @Test
    public final void appendWithAStaleEpochIsRefusedAndWritesNothing() {
        createRoot("s", 2);
        SessionKey s = key("s");
        long stale = epoch(s);
        List<StoredEvent> before = store.readOwn(s, 1, 100);
        clock().advance(TTL.plusSeconds(1));
        Lease usurper = acquired(store.acquire(s, "usurper", TTL, null));

        AppendRequest late = new AppendRequest(s, 2, stale, messages("s", 3, 1),
                List.of(setUserVar("default", "local", "lang", "\"fr\"")), new CommandRecord(s, "c1", "submit:x", 3, null));
        assertThatThrownBy(() -> store.append(late))
                .isInstanceOfSatisfying(LeaseLostException.class, e -> {
                    assertThat(e.sessionId()).isEqualTo("s");
                    assertThat(e.epoch()).isEqualTo(stale);
                    assertThat(e.currentEpoch()).isEqualTo(usurper.epoch());
                });
        assertThat(store.head(s)).isEqualTo(2);
        assertThat(store.readOwn(s, 1, 100)).isEqualTo(before);
        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("default", "local"))).isEmpty();
        assertThat(store.command(s, "c1")).isEmpty();

        assertThat(store.append(new AppendRequest(s, 2, usurper.epoch(), late.events(), late.writes(), late.command())))
                .isEqualTo(3);
        assertThat(store.command(s, "c1")).contains(late.command());
    }

    @Test
    public final void anExpiredLeaseNobodyTookStillFencesNoOne() {
        createRoot("s", 1);
        clock().advance(TTL.multipliedBy(10));

        assertThat(appendMessages("s", 1)).as("only a takeover moves the epoch, not expiry").isEqualTo(2);
    }

    @Test
    public final void appendWithAnEpochNeverAcquiredIsRefused() {
        SessionKey s = unleased("s");

        assertThatThrownBy(() -> store.append(AppendRequest.of(s, 1, 1, messages("s", 2, 1))))
                .isInstanceOf(LeaseLostException.class);
        Lease w1 = acquired(store.acquire(s, "w1", TTL, null));
        assertThatThrownBy(() -> store.append(AppendRequest.of(s, 1, w1.epoch() + 1, messages("s", 2, 1))))
                .isInstanceOf(LeaseLostException.class);
        assertThat(store.head(s)).isEqualTo(1);
        assertThat(store.append(AppendRequest.of(s, 1, w1.epoch(), messages("s", 2, 1)))).isEqualTo(2);
    }

    @Test
    public final void operationsOnUnknownSessionAreRefused() {
        createRoot("s1", 2);
        SessionKey nope = key("nope");

        assertThatThrownBy(() -> store.append(AppendRequest.of(nope, 0, 1, List.of(user("nope", 1, "x")))))
                .isInstanceOf(SessionNotFoundException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> store.head(nope)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.readOwn(nope, 1, 10)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.readOwnTranscript(nope, 1, 10)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.branches(nope)).isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.command(nope, "c1")).isInstanceOf(SessionNotFoundException.class);
        assertThat(store.session(nope)).isEmpty();
        assertThat(store.head(key("s1"))).isEqualTo(2);
    }

    @Test
    public final void readOwnRangesAreInclusiveOrderedAndEmptyOutOfRange() {
        createRoot("s1", 10);
        SessionKey s1 = key("s1");

        assertThat(seqs(store.readOwn(s1, 1, 10))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(seqs(store.readOwn(s1, 4, 6))).containsExactly(4L, 5L, 6L);
        assertThat(seqs(store.readOwn(s1, 7, 7))).containsExactly(7L);
        assertThat(seqs(store.readOwn(s1, 0, 2))).containsExactly(1L, 2L);
        assertThat(seqs(store.readOwn(s1, 9, 500))).containsExactly(9L, 10L);
        assertThat(store.readOwn(s1, 11, 20)).isEmpty();
        assertThat(store.readOwn(s1, 6, 5)).isEmpty();
        assertThat(store.readOwn(s1, 3, 8)).isEqualTo(store.readOwn(s1, 1, 10).subList(2, 8));
    }

    @Test
    public final void readOwnTranscriptReturnsOnlyTranscriptEvents() {
        createRoot("s1", 3);
        SessionKey s1 = key("s1");
        append("s1", 3, List.of(turnCompleted("s1", 4), user("s1", 5, "again"), assistant("s1", 6, "ok"),
                turnCompleted("s1", 7)));

        List<StoredEvent> transcript = store.readOwnTranscript(s1, 1, 7);
        assertThat(seqs(transcript)).containsExactly(2L, 3L, 5L, 6L);
        assertThat(transcript).allSatisfy(e -> assertThat(e.event().touchesTranscript()).isTrue());
        assertThat(transcript).isEqualTo(store.readOwn(s1, 1, 7).stream()
                .filter(e -> e.event().touchesTranscript()).toList());
        assertThat(seqs(store.readOwnTranscript(s1, 4, 5))).containsExactly(5L);
        assertThat(store.readOwnTranscript(s1, 7, 7)).isEmpty();
    }

    @Test
    public final void everyKindOfEventRoundTripsExactly() {
        List<StoredEvent> all = new ArrayList<>(RoundTripFixtures.everyEvent("rt"));
        SessionInfo info = ((Event.SessionCreated) all.get(0).event()).session();
        SessionKey rt = SessionKey.of(info);
        store.create(info, all.subList(0, 1));
        lease(rt);
        append(rt, 1, all.subList(1, all.size()), List.of());

        assertThat(store.session(rt)).contains(info);
        assertThat(store.readOwn(rt, 1, all.size())).isEqualTo(all);
        for (StoredEvent e : all) {
            assertThat(store.readOwn(rt, e.seq(), e.seq())).as("seq %d", e.seq()).containsExactly(e);
        }
    }
}
