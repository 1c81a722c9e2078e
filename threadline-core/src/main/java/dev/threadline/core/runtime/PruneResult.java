package dev.threadline.core.runtime;

/**
 * What pruning one session did (see {@link DataLifecycle#prune}). Immutable.
 *
 * @param tenant        the session's tenant
 * @param sessionId     the session
 * @param policy        the policy applied, as a person reads it
 * @param prunedThrough the seq the history is now pruned through (its base), 0 when it never was
 * @param eventsRemoved the session's own events this prune removed (0 when nothing was pruned)
 * @param limitedBy     why less was pruned than the policy allows, or null: a branch that needs the history
 *                      (named with its branch point), or too little history to prune
 */
public record PruneResult(String tenant, String sessionId, String policy, long prunedThrough, long eventsRemoved, String limitedBy) {
    /** Whether this prune removed anything. */
    public boolean pruned() {
        return eventsRemoved > 0;
    }
}
