package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import java.time.Instant;

/**
 * A legal hold: while it is in place, its subject's data is never swept by retention, pruned or erased.
 * Immutable.
 *
 * @param subject  what is held (a tenant, a user, a session)
 * @param reason   why, as given by who placed it (a case number, a ticket)
 * @param placedAt when it was placed, by the runtime's clock
 * @param placedBy who placed it (an API key id, an operator's name)
 */
public record LegalHold(DataSubject subject, String reason, Instant placedAt, String placedBy) {
    /** @throws dev.threadline.core.error.InvalidInputException when a field is missing */
    public LegalHold {
        Require.nonNull(subject, "subject");
        Require.nonBlank(reason, "reason");
        Require.nonNull(placedAt, "placedAt");
        Require.nonBlank(placedBy, "placedBy");
    }

    /** Whether this hold covers session {@code sessionId} of user {@code userId} in tenant {@code tenant}. */
    public boolean covers(String tenant, String userId, String sessionId) {
        if (!subject.tenant().equals(tenant)) {
            return false;
        }
        return switch (subject.kind()) {
            case TENANT -> true;
            case USER -> subject.id().equals(userId);
            case SESSION -> subject.id().equals(sessionId);
        };
    }

    /** The hold as refusals and tools name it: on what, why, when and by whom. */
    public String describe() {
        return "a legal hold on " + subject + " (" + reason + "), placed " + placedAt + " by '" + placedBy + "'";
    }
}
