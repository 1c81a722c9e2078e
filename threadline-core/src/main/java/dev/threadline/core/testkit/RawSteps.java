package dev.threadline.core.testkit;

import dev.threadline.core.error.Require;
import dev.threadline.core.internal.engine.SessionHandle;
import dev.threadline.core.runtime.Commit;
import dev.threadline.core.runtime.Decider;
import dev.threadline.core.runtime.Session;

/**
 * A test-only SPI: one raw step of the events a decider chooses, mid-turn or not, through the session's
 * command gate (mailbox, lease, fencing, the reducer's checks), for tests and benchmarks that drive a
 * session step by step as an agent loop would (a turn left open, one message per step). Applications
 * use {@link Session#recordStep}, which keeps a recorded step between turns; a raw step can leave a turn
 * open that no loop of this runtime runs (the next owner of the lease closes it). Stateless and
 * thread-safe.
 */
public final class RawSteps {
    private RawSteps() {}

    /**
     * Runs one raw step on {@code session}, a session of a Threadline runtime (not a view of one wrapped
     * by other code).
     *
     * @throws dev.threadline.core.error.InvalidEventException when the reducer refuses the events (nothing is written)
     * @throws dev.threadline.core.error.InvalidInputException when {@code session} is not a runtime's own handle
     */
    public static Commit update(Session session, Decider decider) {
        if (!(Require.nonNull(session, "session") instanceof SessionHandle handle)) {
            throw new dev.threadline.core.error.InvalidInputException("session", "is not a session of a Threadline runtime: "
                    + session.getClass().getName());
        }
        return handle.update(decider);
    }
}
