package dev.threadline.core.store;

import dev.threadline.core.session.SessionInfo;
import java.time.Instant;

/** A row of the sessions index: the session, its journal head and when it last changed. */
public record SessionSummary(SessionInfo info, long headSeq, Instant updatedAt) {
}
