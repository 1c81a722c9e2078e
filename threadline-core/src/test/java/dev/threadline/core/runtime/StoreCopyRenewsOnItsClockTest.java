package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.internal.engine.StoreCopy;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A copy holds the destination's lease of a session while it appends the session's steps, and renews it
 * once a third of its 60 s hold has passed by the clock it is given (issue 34: every deadline from the
 * clock; it used to read {@code System.nanoTime}, so only a copy slow in real time renewed). The test's
 * clock moves 25 s at every append: the lease is renewed from the second append on, and no append goes
 * out under a lease the destination (on the same clock) sees as expired. Nothing waits for real time.
 */
class StoreCopyRenewsOnItsClockTest {
    private static final Duration PER_APPEND = Duration.ofSeconds(25);
    private final TestClock clock = new TestClock();

    @Test
    void aCopyRenewsTheDestinationsLeaseAsItsClockMovesAndNeverAppendsUnderAnExpiredOne() {
        StateStore source = new InMemoryStateStore(clock);
        Threadline tl = Threadline.builder().store(source).clock(clock).leaseLinger(Duration.ZERO)
                .model(ScriptedModel.of(req -> ScriptedModel.text("ack " + req.messages().getLast().text()))).build();
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        for (int i = 0; i < 4; i++) {
            s.submit("turn " + i);
        }
        List<Boolean> renewals = new ArrayList<>(); // per append: whether the lease was renewed since the one before
        List<String> expired = new ArrayList<>();
        boolean[] renewed = new boolean[1];
        StateStore dest = new ForwardingStore(new InMemoryStateStore(clock)) {
            @Override
            public long append(AppendRequest request) {
                lease(request.key()).filter(l -> l.expiredAt(clock.instant()))
                        .ifPresent(l -> expired.add("seq " + (request.expectedSeq() + 1) + " under a lease that expired at " + l.expiresAt()));
                renewals.add(renewed[0]);
                renewed[0] = false;
                long head = super.append(request);
                clock.advance(PER_APPEND);
                return head;
            }

            @Override
            public Lease renew(Lease lease, Duration ttl) {
                renewed[0] = true;
                return super.renew(lease, ttl);
            }
        };

        CopyReport r;
        try {
            r = new StoreCopy(source, dest, c -> { }, clock).copy(SessionInfo.DEFAULT_TENANT, null);
        } finally {
            tl.close();
        }

        assertThat(r.sessions()).isEqualTo(1);
        assertThat(renewals).as("several appends, so the clock passes the 60 s hold").hasSizeGreaterThan(3);
        assertThat(renewals.getFirst()).as("the first append under the fresh lease").isFalse();
        assertThat(renewals.subList(1, renewals.size())).as("after 25 s by the clock, more than a third of the hold: renewed").containsOnly(true);
        assertThat(expired).isEmpty();
        SessionKey key = new SessionKey(SessionInfo.DEFAULT_TENANT, "s1");
        assertThat(dest.head(key)).isEqualTo(r.events());
    }
}
