package dev.threadline.core.runtime;

import java.time.Duration;

/**
 * What this runtime has live now ({@code Threadline.live()}): sessions with a command queued or running
 * here, a turn running here, or a lease this process holds. One registry owns these facts in the
 * engine; this is its read-only face, for a server's gauges and for shutdown. Counts are a moment's
 * reading. Thread-safe.
 */
public interface LiveSessions {

    /** Sessions with anything live here: a queued or running command, a running turn, a held lease. */
    int sessions();

    /** Turns this process is running now (a turn suspended for a person does not run). */
    int runningTurns();

    /** Commands waiting behind another command of the same session in this process. */
    int queuedCommands();

    /**
     * Waits until no command runs or waits in this process, up to {@code timeout} (measured by the
     * runtime's clock and scheduler).
     *
     * @return whether every command ended in time
     * @throws dev.threadline.core.error.InvalidInputException when {@code timeout} is null or negative
     */
    boolean awaitQuiet(Duration timeout);

    /**
     * Asks every turn this process runs to stop, as {@link Session#interrupt()} does for one, recording
     * {@code reason}.
     *
     * @return how many turns were asked
     * @throws dev.threadline.core.error.InvalidInputException when {@code reason} is blank
     */
    int interruptAll(String reason);
}
