package dev.threadline.core.runtime;

/**
 * What one pass of retention ({@link dev.threadline.core.Threadline#sweep}) did with the expired sessions
 * it looked at. Immutable.
 *
 * @param removed      expired sessions deleted (with their journals, snapshots and command records)
 * @param running      expired sessions kept because their lease is held and not expired: a turn may be running
 * @param withBranches expired sessions kept because branches (forks, rewinds) that have not expired depend on them
 * @param held         expired sessions kept because a legal hold covers them (see {@link DataLifecycle})
 */
public record SweepResult(int removed, int running, int withBranches, int held) {
    /** @throws dev.threadline.core.error.InvalidInputException when a count is negative */
    public SweepResult {
        dev.threadline.core.error.Require.argument(removed >= 0 && running >= 0 && withBranches >= 0 && held >= 0, "counts",
                "must not be negative");
    }

    /** A pass that met no held session. */
    public SweepResult(int removed, int running, int withBranches) {
        this(removed, running, withBranches, 0);
    }

    /** How many expired sessions the pass looked at. */
    public int examined() {
        return removed + running + withBranches + held;
    }
}
