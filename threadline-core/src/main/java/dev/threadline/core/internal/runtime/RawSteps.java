package dev.threadline.core.internal.runtime;

import dev.threadline.core.runtime.Commit;
import dev.threadline.core.runtime.Decider;
import dev.threadline.core.runtime.Session;

/**
 * The raw step of events a decider chooses, mid-turn or not, for Threadline's own modules that drive
 * the engine directly (the benchmark writes the steps an agent loop would). Not API: the package is
 * exported only to those modules. The runtime installs the implementation (the JDK's "shared
 * secrets" pattern), so the engine itself stays package-private. Thread-safe.
 */
public final class RawSteps {
    /** What the runtime provides. */
    public interface Access {
        /** Runs one step through the session's command gate (mailbox, lease, fencing). */
        Commit update(Session session, Decider decider);
    }

    private static volatile Access access;

    private RawSteps() {}

    /** Called once by the runtime. */
    public static void install(Access a) {
        access = a;
    }

    /**
     * Runs one raw step on {@code session} (a session handle of a Threadline runtime).
     *
     * @throws dev.threadline.core.InvalidEventException when the reducer refuses the events (nothing is written)
     */
    public static Commit update(Session session, Decider decider) {
        Access a = access;
        if (a == null) {
            try {
                Class.forName("dev.threadline.core.runtime.SessionHandle", true, RawSteps.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("the Threadline runtime is not on the class path", e);
            }
            a = access;
        }
        return a.update(session, decider);
    }
}
