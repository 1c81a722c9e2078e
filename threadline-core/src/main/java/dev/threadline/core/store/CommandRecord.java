package dev.threadline.core.store;

import dev.threadline.core.error.Require;

/**
 * A caller's command id as recorded with the first step of the command. Immutable.
 *
 * @param session     the session the record belongs to (for a fork: the session forked from)
 * @param commandId   the caller's id (e.g. an HTTP Idempotency-Key), unique per session
 * @param fingerprint what the command was (kind and a digest of its arguments), to tell a retry from a different command
 * @param seq         the seq of the command's first event in {@code session} (for a fork: the branch point)
 * @param result      a short result the journal cannot tell (for a fork: the new session's id), or null
 */
public record CommandRecord(SessionKey session, String commandId, String fingerprint, long seq, String result) {
    /** @throws dev.threadline.core.error.InvalidInputException when a field is missing or too long */
    public CommandRecord {
        Require.nonNull(session, "command.session");
        Require.nonBlank(commandId, "command id");
        Require.argument(commandId.length() <= 255, "command id", "must be at most 255 characters, was " + commandId.length());
        Require.nonBlank(fingerprint, "command.fingerprint");
        Require.argument(seq >= 1, "command.seq", "must be at least 1, was " + seq);
    }
}
