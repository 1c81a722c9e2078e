package dev.threadline.core.runtime;

/**
 * What one pass of pruning over a tenant's sessions did (see {@link DataLifecycle#pruneTenant}). Immutable.
 *
 * @param pruned        sessions whose history was pruned
 * @param unchanged     sessions with nothing to prune under the policy
 * @param held          sessions a legal hold covers (left untouched)
 * @param running       sessions whose lease another process holds (a turn may be running; tried again next pass)
 * @param eventsRemoved events removed over all of them
 */
public record PruneSweep(int pruned, int unchanged, int held, int running, long eventsRemoved) {
    /** How many sessions the pass looked at. */
    public int examined() {
        return pruned + unchanged + held + running;
    }
}
