package dev.threadline.core.internal.engine;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.util.Optional;

/**
 * The part of copying a pruned session (ADR 0045, issue 24) that is about its base: the destination's session must
 * start from the same base as the source's (none for one never pruned), or it is refused, naming it. Stateless.
 */
final class PrunedCopies {
    private PrunedCopies() {}

    /**
     * Checks that session {@code key} of {@code to} has {@code base} as its own history base.
     *
     * @throws ThreadlineException naming the session and both bases when they differ; nothing is written to it then
     */
    static void sameBase(StateStore to, SessionKey key, Optional<HistoryBase> base) {
        Optional<HistoryBase> there = to.historyBase(key);
        if (!there.equals(base)) {
            throw new ThreadlineException("session '" + key.id() + "' of tenant " + key.tenant() + " starts in the destination from "
                    + describe(there) + " but in the source from " + describe(base)
                    + "; it was not copied further (remove it from the destination, or copy to another store)");
        }
    }

    private static String describe(Optional<HistoryBase> base) {
        return base.map(b -> "a base through seq " + b.seq() + " (" + b.policy() + ", pruned at " + b.prunedAt() + ")")
                .orElse("its first event (it was never pruned)");
    }
}
