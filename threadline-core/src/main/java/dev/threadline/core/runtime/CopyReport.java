package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;

/**
 * What one copy of sessions between two stores ({@link dev.threadline.core.SessionCopy#run}) did, and what
 * its final comparison of the journals found. Immutable.
 *
 * @param tenant          the tenant whose sessions were copied
 * @param sessions        sessions copied (each with its branches' ancestors before it)
 * @param created         of those, sessions the destination did not have
 * @param resumed         of those, sessions the destination had a prefix of (an earlier copy stopped in them)
 * @param events          events appended to the destination
 * @param eventsPresent   events the destination already had (matching the source), left as they were
 * @param commands        command records written with the events (caller-supplied command ids)
 * @param eventsCompared  events compared in the final check, every one equal in both stores
 */
public record CopyReport(String tenant, int sessions, int created, int resumed, long events, long eventsPresent, int commands,
                         long eventsCompared) {
    /** @throws dev.threadline.core.error.InvalidInputException when a count is negative */
    public CopyReport {
        Require.nonBlank(tenant, "tenant");
        Require.argument(sessions >= 0 && created >= 0 && resumed >= 0 && events >= 0 && eventsPresent >= 0 && commands >= 0
                && eventsCompared >= 0, "counts", "must not be negative");
    }

    /** Sessions the destination already had whole: nothing was written to them. */
    public int unchanged() {
        return sessions - created - resumed;
    }

    /**
     * One session once it is copied and compared, as a copy reports its progress. Immutable.
     *
     * @param sessionId     the session
     * @param head          its journal head in both stores (including a branch's shared prefix)
     * @param events        events appended to the destination
     * @param eventsPresent events the destination already had
     */
    public record Copied(String sessionId, long head, long events, long eventsPresent) {
    }
}
