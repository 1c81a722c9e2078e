package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import dev.threadline.core.model.Role;
import java.time.Instant;

/**
 * One message of a session's journal that matched a search ({@link History#search}), best first.
 * Immutable.
 *
 * @param session the session whose journal holds it (the session itself, or an ancestor for a branch's shared prefix)
 * @param seq     its event's seq in that journal: read it, fork or rewind there
 * @param role    who said it: the user, the assistant, or a tool's result (as {@link Role#USER}, with the tool's text)
 * @param time    when it was journalled
 * @param snippet the part of its text around the first match, at most {@value #SNIPPET} characters, "…" where cut
 * @param score   the ranking score (BM25 over the journal's messages); only the order of hits means something
 */
public record SearchHit(String session, long seq, Role role, Instant time, String snippet, double score) {
    /** The longest snippet. */
    public static final int SNIPPET = 200;

    /** @throws dev.threadline.core.error.InvalidInputException when a field is missing */
    public SearchHit {
        Require.nonBlank(session, "session");
        Require.nonNull(role, "role");
        Require.nonNull(time, "time");
        Require.nonNull(snippet, "snippet");
    }
}
